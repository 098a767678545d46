/**
 * A suite of 100 recorded cases × 5 turns (card-disputes, each case with its own amount and date),
 * replayed on the embedded engine (in process, as `threadline test` without --server) and through
 * the reference service (`server/main.ts` as its own process, SQLite, public API with the bundle
 * under test sent with every message, as `threadline test --server ... --bundle ...`).
 *
 *   npx tsx bench/test-suite.ts [--reps 5] [--cases 100] [--concurrency 4]
 *
 * Per rep: the suite's wall time divided by the cases (time per case at that concurrency), and the
 * median of the cases' own durations. Prints a Markdown table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bundle } from '../src/contract/bundle';
import { bundleHash } from '../src/lib/bundle/hash';
import {
  httpDriver,
  runSuite,
  summarize,
  type CaseResult,
  type Driver,
  type SuiteCase,
} from '../src/lib/test-cases';
import { embeddedDriver } from '../cli/embedded-driver';
import { exampleBundle } from '../server/agents/converse';
import { numberArg } from '../tools/lib/args';
import { benchCase, median } from './lib/suite-cases';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';

const REPS = numberArg('reps', 5);
const CASES = numberArg('cases', 100);
const CONCURRENCY = numberArg('concurrency', 4);
const KEY = 'bench-key';

/** Records each turn's decision, rules and tools from a first run, as "Save as test" would. */
async function recorded(driver: Driver): Promise<SuiteCase[]> {
  const drafts = Array.from({ length: CASES }, (_, i) => ({
    source: `case-${i}.case.json`,
    testCase: benchCase(i),
  }));
  const first = await runSuite(driver, drafts);
  return drafts.map((d, i) => ({
    source: d.source,
    testCase: {
      ...d.testCase,
      turns: first[i]!.turns.map((t) => ({
        say: t.say,
        expect: {
          decision: t.observed.trace.decision,
          rules: Object.fromEntries(t.observed.trace.rules_evaluated.map((r) => [r.rule_id, r.result])),
          tools_invoked: t.observed.trace.tools_invoked.map((x) => x.tool),
        },
      })),
    },
  }));
}

async function measure(label: string, driver: Driver, cases: SuiteCase[]) {
  const perCase: number[] = [];
  const caseMedians: number[] = [];
  for (let rep = 0; rep < REPS + 1; rep++) {
    const t0 = performance.now();
    const results: CaseResult[] = await runSuite(driver, cases, { concurrency: CONCURRENCY });
    const wall = performance.now() - t0;
    const s = summarize(results);
    if (s.passed !== cases.length) throw new Error(`${label}: ${s.failed} failed, ${s.errors} errors`);
    if (rep === 0) continue; // warm-up rep
    perCase.push(wall / cases.length);
    caseMedians.push(median(results.map((r) => r.ms)));
  }
  const f = (x: number) => `${x.toFixed(1)} ms`;
  console.log(
    `| ${today()} | ${label} | ${CASES} × 5 | ${CONCURRENCY} | ${REPS} | ${f(Math.min(...perCase))} | ${f(median(perCase))} | ${f(median(caseMedians))} | ${loadavg()[0]!.toFixed(1)} |`,
  );
}

/** The active bundle with DISPUTE_WINDOW's 8 days changed to `days`: a new draft, a new hash. */
function windowDraft(days: number): Bundle {
  const text = JSON.stringify(bundle).replace(/("code":"DISPUTE_WINDOW"[^]*?"value":)8\b/, `$1${days}`);
  if (!text.includes(`"value":${days}`)) throw new Error('DISPUTE_WINDOW not found in the bundle');
  return JSON.parse(text) as Bundle;
}

/**
 * The impact endpoint (`POST /reference/v1/agents/card-disputes/impact`) with the whole suite,
 * timed at the client (request, both replays, JSON): "cold" when the baseline's runs are not
 * remembered yet (a new user id per rep, so both bundles run every turn), "typing" when only the
 * draft changes (a new draft each rep, the baseline's runs remembered), which is what the editor's
 * preview asks after each settled edit.
 */
async function measureImpact(url: string, suite: SuiteCase[]) {
  const post = async (draftBundle: Bundle, userId: string) => {
    const t0 = performance.now();
    const res = await fetch(`${url}/reference/v1/agents/card-disputes/impact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': KEY },
      body: JSON.stringify({
        agent_settings_bundle: draftBundle,
        cases: suite.map((c) => ({
          id: c.source,
          clock: c.testCase.clock,
          user_id: userId,
          messages: c.testCase.turns.map((t) => t.say),
        })),
      }),
    });
    const body = (await res.json()) as { total?: number; changed?: number };
    if (res.status !== 200 || body.total !== suite.length) throw new Error(`impact: ${res.status}`);
    return performance.now() - t0;
  };
  const cold: number[] = [];
  const typing: number[] = [];
  for (let rep = 0; rep < REPS + 1; rep++) {
    const c = await post(windowDraft(1 + (rep % 7)), `cold-${rep}`);
    if (rep > 0) cold.push(c);
  }
  await post(windowDraft(1), 'typing'); // the baseline's runs for this user, remembered
  for (let rep = 0; rep < REPS + 1; rep++) {
    const t = await post(windowDraft(2 + rep), 'typing');
    if (rep > 0) typing.push(t);
  }
  const f = (x: number) => `${x.toFixed(0)} ms`;
  for (const [label, xs] of [
    ['impact endpoint, cold (both bundles run)', cold],
    ['impact endpoint, typing (the draft runs, baseline remembered)', typing],
  ] as const)
    console.log(
      `| ${today()} | ${label} | ${CASES} × 5 | 1 request | ${REPS} | ${f(Math.min(...xs))} per suite | ${f(median(xs))} per suite | | ${loadavg()[0]!.toFixed(1)} |`,
    );
}

const bundle = exampleBundle('card-disputes');
const local = embeddedDriver(bundle);
const cases = await recorded(local);
console.log(machine());
console.log(
  '| date | engine | cases × turns | concurrency | reps | per case, min | per case, median | case duration, median | load average after |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
await measure('embedded (in process)', local, cases);

const dataDir = mkdtempSync(join(tmpdir(), 'threadline-bench-suite-'));
const service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*`, echoStderr: true });
try {
  await measure(
    'reference service over HTTP',
    httpDriver({ baseUrl: service.url, apiKey: KEY, bundle, bundleHash: bundleHash(bundle) }),
    cases,
  );
  await measureImpact(service.url, cases);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
