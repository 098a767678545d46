/**
 * Rule lint and the semantic diff on generated bundles of 20, 200 and 2,000 rules
 * (`lib/generated-bundle.ts`: main tools of constraint rules reading two values each), in process,
 * as the browser's Web Worker, the service's worker pool and the CLI run them:
 * - the quick lint (`toolRuns: false`: the bundle's shape and each rule's condition), the editor's
 *   first answer after a keystroke, and the whole lint (each tool's run decided over its regions),
 *   its second;
 * - the diff of the bundle against itself with one threshold moved (one rule's number + 5);
 * and the same on the card-disputes example agent (analysed whole: lint of its 30-day version, the
 * diff of its two versions).
 * Each figure: repetitions, minimum and median; the load average before and after.
 *
 *   npx tsx bench/analysis.ts [--reps 5]
 */
import { loadavg } from 'node:os';
import type { Bundle } from '../src/contract/bundle';
import { diffBundles, lintBundle } from '../engine/analysis';
import { numberArg } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { exampleBundle } from '../server/agents/converse';
import { generateBundle } from './lib/generated-bundle';

const REPS = numberArg('reps', 5);
const CLOCK = '2025-03-15T10:00:00.000Z';
const SIZES = [
  { rules: 20, shape: { tools: 2, params: 12, globalRules: 0, rulesPerTool: 10 } },
  { rules: 200, shape: { tools: 10, params: 40, globalRules: 0, rulesPerTool: 20 } },
  { rules: 2000, shape: { tools: 100, params: 120, globalRules: 0, rulesPerTool: 20 } },
];

/** The bundle with the first numeric operand of tool 0's rule 3 moved by 5. */
function moved(bundle: Bundle): Bundle {
  const b = structuredClone(bundle) as {
    agent_tools: { rules: { pre: { constraint: { when: { all: { value?: unknown }[] } }[] } } }[];
  };
  for (const leaf of b.agent_tools[0]!.rules.pre.constraint[3]!.when.all)
    if (typeof leaf.value === 'number') {
      leaf.value += 5;
      break;
    }
  return b as unknown as Bundle;
}

function time(fn: () => void): { min: number; median: number } {
  const samples: number[] = [];
  fn(); // warm-up
  for (let i = 0; i < REPS; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { min: samples[0]!, median: samples[Math.floor(samples.length / 2)]! };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

console.log(`# Lint and diff, ${today()}, ${machine()}, ${REPS} repetitions after one warm-up`);
console.log(`load average before: ${load()}`);
console.log(
  '| rules | quick lint min / median | lint min / median | lint regions, capped | diff min / median | diff regions, differences, capped |',
);
console.log('|---|---|---|---|---|---|');
const quickLint = (b: Bundle) => time(() => lintBundle(b, { clock: CLOCK, toolRuns: false }));
for (const { rules, shape } of SIZES) {
  const base = generateBundle(shape);
  const head = moved(base);
  const l = lintBundle(base, { clock: CLOCK });
  const d = diffBundles(base, head, { clock: CLOCK });
  const qt = quickLint(base);
  const lt = time(() => lintBundle(base, { clock: CLOCK }));
  const dt = time(() => diffBundles(base, head, { clock: CLOCK }));
  console.log(
    `| ${rules} | ${ms(qt.min)} / ${ms(qt.median)} | ${ms(lt.min)} / ${ms(lt.median)} | ${l.regions}, ${l.capped} | ${ms(dt.min)} / ${ms(dt.median)} | ${d.regions}, ${d.differences.length}, ${d.capped} |`,
  );
}
const v1 = exampleBundle('card-disputes', { version_id: 'v1-30-day-window' });
const v2 = exampleBundle('card-disputes', { version_id: 'v2-8-day-window' });
const l = lintBundle(v1, { clock: CLOCK });
const d = diffBundles(v1, v2, { clock: CLOCK });
const qt = quickLint(v1);
const lt = time(() => lintBundle(v1, { clock: CLOCK }));
const dt = time(() => diffBundles(v1, v2, { clock: CLOCK }));
console.log(
  `| card-disputes | ${ms(qt.min)} / ${ms(qt.median)} | ${ms(lt.min)} / ${ms(lt.median)} | ${l.regions}, ${l.capped} | ${ms(dt.min)} / ${ms(dt.median)} | ${d.regions}, ${d.differences.length}, ${d.capped} |`,
);
console.log(`load average after: ${load()}`);
