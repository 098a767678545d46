/**
 * One engine turn on a generated bundle with 200 tools and 1,000 rules.
 * Run: npx tsx bench/engine-turn.ts
 * "warm": the same bundle object every turn (compiled once, as a service holding the agent).
 * "cold": a fresh copy of the bundle every turn (normalised and indexed each time, as for a
 * bundle attached to each message).
 */
import os from 'node:os';
import type { Bundle } from '../src/contract/bundle';
import { generateBundle, word } from './lib/generated-bundle';
import { engine } from '../engine';

const TOOLS = 200;
const PARAMS = 120;
const GLOBAL_RULES = 200;
const RULES_PER_TOOL = (1000 - GLOBAL_RULES) / TOOLS;
const CLOCK = '2025-03-15T10:00:00Z';
function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { median: at(0.5), p99: at(0.99), max: s[s.length - 1]! };
}

function run(label: string, turns: number, fresh: boolean) {
  const base = generateBundle({
    tools: TOOLS,
    params: PARAMS,
    globalRules: GLOBAL_RULES,
    rulesPerTool: RULES_PER_TOOL,
  });
  const json = JSON.stringify(base);
  const samples: number[] = [];
  let state = engine.initialState(base, CLOCK, 'u');
  for (let i = 0; i < turns; i++) {
    const t = i % TOOLS;
    const bundle = fresh ? (JSON.parse(json) as Bundle) : base;
    const text =
      i % 3 === 0
        ? `I need help with ${word(t)} ${word(t + 7)}: $${120 + i} from ${i % 9} days ago, ID-${1000 + ((t * 3) % PARAMS)}`
        : i % 3 === 1
          ? 'yes, go ahead'
          : `${word(t + 2)} please`;
    const start = process.hrtime.bigint();
    const out = engine.runTurn({ bundle, state, text, clock: CLOCK, interactionId: `m${i}`, userId: 'u' });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    state = i % 6 === 5 ? engine.initialState(base, CLOCK, 'u') : out.state;
  }
  const r = stats(samples.slice(Math.min(200, Math.floor(turns / 10))));
  console.log(
    `${label}: ${turns} turns, median ${r.median.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms, max ${r.max.toFixed(3)} ms`,
  );
}

console.log(
  `engine-turn: ${TOOLS} tools, ${GLOBAL_RULES + TOOLS * RULES_PER_TOOL} rules, ${PARAMS} parameters; node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown cpu'})`,
);
run('warm (bundle compiled once)', 3000, false);
run('cold (fresh bundle copy every turn)', 600, true);
