/**
 * The impact replay without HTTP or a browser: N card-disputes cases × 5 turns (1,000 unless
 * `--cases`), the baseline's runs remembered, a new draft each rep (DISPUTE_WINDOW retyped), as the
 * editor's preview asks while a person types.
 *
 * - On the engine in this thread, one conversation after another: the engine's own cost per turn,
 *   for each size in `--sizes` (e.g. `100,250,500,1000`), to see whether it grows with the suite.
 *   Every rep runs the same bundle, so after the warm-up each message's reading is remembered, as
 *   for a draft after the baseline.
 * - On the service's worker threads, alternating rep by rep: the background pool (behind the
 *   request loop, one batch at a time) and the interactive threads (the request loop's priority, a
 *   batch per thread at once), which is what the service uses. `--compete K` starts K busy
 *   processes at normal priority meanwhile, standing in for other work on the machine.
 *
 *   npx tsx bench/impact-replay.ts [--cases 1000] [--sizes 100,1000] [--reps 5] [--compete 0]
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import type { Bundle } from '../src/contract/bundle';
import type { ImpactCase } from '../src/contract/impact';
import { exampleBundle } from '../server/agents/converse';
import { engine } from '../engine';
import { runConversations } from '../engine/impact/conversations';
import { createRunCache, replayImpact } from '../server/service/impact-replay';
import { createEnginePool, defaultPoolSettings, interactiveWorkers } from '../server/work/engine-pool';
import { SERVICE_SHARE, type EngineWork, type WorkPriority } from '../server/work/engine-work';
import { argValue, numberArg } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { benchCase, median } from './lib/suite-cases';

const CASES = numberArg('cases', 1000);
const SIZES = (argValue('sizes') ?? '').split(',').filter(Boolean).map(Number);
const REPS = numberArg('reps', 5);
const COMPETE = numberArg('compete', 0);

const bundle = exampleBundle('card-disputes');
/** The bundle with DISPUTE_WINDOW's 8 days changed to `days`: a new draft, a new object. */
const draftOf = (days: number) =>
  JSON.parse(
    JSON.stringify(bundle).replace(/("code":"DISPUTE_WINDOW"[^]*?"value":)8\b/, `$1${days}`),
  ) as Bundle;
const suite = (n: number): ImpactCase[] =>
  Array.from({ length: n }, (_, i) => {
    const c = benchCase(i);
    return { id: `case-${i}`, clock: c.clock, user_id: 'bench', messages: c.turns.map((t) => t.say) };
  });
const f = (x: number) => `${x.toFixed(0)} ms`;
const row = (label: string, n: number, xs: number[], load: number) =>
  console.log(
    `| ${today()} | ${label} | ${n} × 5 | ${xs.length} | ${f(Math.min(...xs))} | ${f(median(xs))} | ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} |`,
  );

console.log(machine(), `, ${COMPETE} busy processes besides`);
console.log('| date | replay | cases × turns | reps | min | median | load average before → after |');
console.log('|---|---|---|---|---|---|---|');
const hogs = Array.from({ length: COMPETE }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const pool = createEnginePool(defaultPoolSettings());
try {
  for (const n of SIZES) {
    const cases = suite(n);
    const load = loadavg()[0]!;
    const times: number[] = [];
    for (let rep = 0; rep <= REPS; rep++) {
      const t0 = performance.now();
      for (let done = 0; done < cases.length;)
        done += runConversations(engine, bundle, cases.slice(done)).length;
      if (rep > 0) times.push(performance.now() - t0);
    }
    row('the engine in this thread, one side', n, times, load);
  }

  const cases = suite(CASES);
  const cache = createRunCache();
  const replay = async (priority: WorkPriority, days: number) => {
    const work: Pick<EngineWork, 'conversations'> = {
      conversations: (b, list, share) => pool.conversations(b, list, share, priority),
    };
    const t0 = performance.now();
    await replayImpact({
      work,
      share: SERVICE_SHARE,
      baseline: { bundle, key: 'baseline' },
      draft: draftOf(days),
      cases,
      signal: new AbortController().signal,
      cache,
      batchesAtOnce: priority === 'interactive' ? interactiveWorkers() : 1,
    });
    return performance.now() - t0;
  };
  // The baseline's runs remembered, every thread started and warm.
  await replay('background', 1);
  await replay('interactive', 2);
  const load = loadavg()[0]!;
  const times: Record<WorkPriority, number[]> = { background: [], interactive: [] };
  let days = 3;
  for (let rep = 0; rep < REPS; rep++)
    for (const priority of ['background', 'interactive'] as const)
      times[priority].push(await replay(priority, days++));
  row('the draft on the background pool (niceness 10, a batch at a time)', CASES, times.background, load);
  row(
    `the draft on the interactive threads (${interactiveWorkers()}, a batch each at once)`,
    CASES,
    times.interactive,
    load,
  );
} finally {
  for (const hog of hogs) hog.kill();
  await pool.close();
}
