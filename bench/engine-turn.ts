/**
 * One engine turn on a generated bundle with 200 tools and 1,000 rules.
 * Run: npx tsx bench/engine-turn.ts
 * "warm": the same bundle object every turn (compiled once, as a service holding the agent).
 * "cold": a fresh copy of the bundle every turn (normalised and indexed each time, as for a
 * bundle attached to each message).
 */
import os from 'node:os';
import type { Bundle, Rule, Tool } from '../src/contract/bundle';
import { engine } from '../server/engine';

const TOOLS = 200;
const PARAMS = 120;
const GLOBAL_RULES = 200;
const RULES_PER_TOOL = (1000 - GLOBAL_RULES) / TOOLS;
const CLOCK = '2025-03-15T10:00:00Z';
const WORDS =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(
    ' ',
  );
const word = (i: number) => `${WORDS[i % WORDS.length]}${Math.floor(i / WORDS.length)}`;

function generate(): Bundle {
  const types = ['numeric', 'date', 'string', 'enum'] as const;
  const parameters = Array.from({ length: PARAMS }, (_, i) => {
    const type = types[i % types.length]!;
    return {
      code: `param-${i}`,
      type,
      usage: 'input' as const,
      description: `The ${word(i)} ${type === 'numeric' ? 'amount' : type}`,
      ...(type === 'enum' ? { values: [word(i), word(i + 1), word(i + 2)] } : {}),
      ...(type === 'string' ? { examples: [`ID-${1000 + i}`] } : {}),
      question: `What is the ${word(i)}?`,
    };
  });
  const leaf = (t: number, k: number) => {
    const p = parameters[(t * 3 + k) % PARAMS]!;
    if (p.type === 'numeric')
      return { method: 'param_value', params: p.code, operation: 'gt', value: 100 + k };
    if (p.type === 'date')
      return { method: 'param_value', params: p.code, operation: 'more_than_x_days', value: 10 + k };
    if (p.type === 'enum')
      return { method: 'param_value', params: p.code, operation: 'eq', value: p.values![0]! };
    return { method: 'param_value', params: p.code, operation: 'is_empty' };
  };
  const agent_tools: Tool[] = Array.from({ length: TOOLS }, (_, t) => ({
    code: `TOOL_${t}`,
    name: `${word(t)} ${word(t + 7)} service`,
    when_to_use: `The user asks about ${word(t)} or ${word(t + 3)} ${word(t + 11)}`,
    goal: `Handle ${word(t)} requests`,
    main_tool: true,
    requires_confirmation: t % 2 === 0,
    config: {
      params: {
        required: [
          parameters[(t * 3) % PARAMS]!.code,
          [parameters[(t * 3 + 1) % PARAMS]!.code, parameters[(t * 3 + 2) % PARAMS]!.code],
        ],
      },
    },
    integrations: [{ code: `api-${t % 20}` }],
    rules: {
      pre: {
        constraint: Array.from({ length: RULES_PER_TOOL }, (_, k) => ({
          code: `T${t}_R${k}`,
          when: { all: [leaf(t, k), leaf(t, k + 1)] },
          then: {
            action: 'BLOCK',
            message: `Blocked by rule ${k} for {{${parameters[(t * 3) % PARAMS]!.code}}}`,
          },
        })),
      },
      summary: {
        success: [
          { code: `T${t}_DONE`, when: null, then: { action: 'TEXT', message: 'Done with {{param-0}}.' } },
        ],
      },
    },
  }));
  const rules: Rule[] = Array.from({ length: GLOBAL_RULES }, (_, g) => ({
    code: `GLOBAL_${g}`,
    applied_to: [`TOOL_${g % TOOLS}`, `TOOL_${(g * 7) % TOOLS}`],
    when: leaf(g, 2),
    then: { action: 'BLOCK', message: 'Global block.' },
  }));
  const integrations = Array.from({ length: 20 }, (_, i) => ({
    code: `api-${i}`,
    type: 'API' as const,
    settings: {
      response_mapping: { 'param-0': 'result.value' },
      test_curl_response: { result: { value: `R${i}` } },
    },
  }));
  return {
    schema_version: 1,
    general_settings: { name: 'Bench agent' },
    parameters,
    integrations,
    rules,
    agent_tools,
  };
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { median: at(0.5), p99: at(0.99), max: s[s.length - 1]! };
}

function run(label: string, turns: number, fresh: boolean) {
  const base = generate();
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
