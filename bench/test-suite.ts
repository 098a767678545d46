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
import { bundleHash } from '../src/lib/bundle/hash';
import {
  httpDriver,
  runSuite,
  summarize,
  type CaseResult,
  type Driver,
  type SuiteCase,
  type TestCase,
} from '../src/lib/test-cases';
import { embeddedDriver } from '../cli/embedded-driver';
import { exampleBundle } from '../server/agents/converse';
import { numberArg } from './lib/args';
import { machine, today } from './lib/machine';
import { startService } from './lib/processes';

const REPS = numberArg('reps', 5);
const CASES = numberArg('cases', 100);
const CONCURRENCY = numberArg('concurrency', 4);
const KEY = 'bench-key';

function draft(i: number): TestCase {
  return {
    format: 'threadline-test-case',
    format_version: 1,
    name: `case ${i}`,
    agent_id: 'card-disputes',
    clock: new Date(Date.UTC(2025, 0, 1) + (i % 60) * 86_400_000).toISOString(),
    turns: [
      'I want to dispute a charge',
      'It was a duplicate charge',
      `$${20 + i}.50`,
      `${1 + (i % 7)} days ago`,
      `user${i}@example.com`,
    ].map((say) => ({ say, expect: { decision: 'proceed' } })),
  };
}

/** Records each turn's decision, rules and tools from a first run, as "Save as test" would. */
async function recorded(driver: Driver): Promise<SuiteCase[]> {
  const drafts = Array.from({ length: CASES }, (_, i) => ({
    source: `case-${i}.case.json`,
    testCase: draft(i),
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

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
const service = await startService(dataDir, KEY);
try {
  await measure(
    'reference service over HTTP',
    httpDriver({ baseUrl: service.url, apiKey: KEY, bundle, bundleHash: bundleHash(bundle) }),
    cases,
  );
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
