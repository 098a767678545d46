/**
 * Invariants over generated bundles and conversations (fast-check, seeded; the seed is printed
 * when a property fails, and `THREADLINE_PROPERTY_SEED` replays it), and over every example
 * agent's suite:
 * - the decision is the one the rule results give, and every reason names its outcome;
 * - every reason of a rule decided on known values shows the values it compared (both sides of a
 *   `{"ref"}`);
 * - a rule reading a present but bad value (a formula that cannot run, a profile value not of its
 *   type) is `error`, never skipped;
 * - the same bundle and messages give the same trace on any task, and after renaming every code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bundle, ConditionLeaf, Rule } from '../src/contract/bundle';
import { exampleAgents, exampleBundle } from '../server/agents/converse';
import type { TurnOutput } from './contract';
import { engine } from './index';
import { readState } from './state';
import { traceViolations } from './trace-invariants';
import { showValue } from './values';

const CLOCK = '2025-03-15T12:00:00Z';
const RUNS = 1000;
const SEED = Number(process.env.THREADLINE_PROPERTY_SEED ?? 20250315);

// ---------------------------------------------------------------- generated bundles

type Kind = 'numeric' | 'date' | 'enum';
const PARAMS: { code: string; kind: Kind }[] = [
  { code: 'qa1', kind: 'numeric' },
  { code: 'qb2', kind: 'numeric' },
  { code: 'qc3', kind: 'date' },
  { code: 'qd4', kind: 'enum' },
  { code: 'qe5', kind: 'numeric' },
  { code: 'qf6', kind: 'numeric' },
];
const NUMERIC = PARAMS.filter((p) => p.kind === 'numeric').map((p) => p.code);
const GOOD_FORMULAS = ['{{qa1}} * 2', '{{qa1}} + {{qb2}}', 'max({{qa1}}, 10)'];
const BAD_FORMULAS = ['{{qa1}} / 0', '{{qa1}} * * 2', 'twice {{qa1}}'];
const TOOLS = [
  { code: 'TOOL_A', name: 'Top up credit', when_to_use: 'When the user wants to top up credit' },
  { code: 'TOOL_B', name: 'Book a trip', when_to_use: 'When the user wants to book a trip' },
];

type Leaf = ConditionLeaf & { params: string; operation: string };

const numberOperand = fc.oneof(
  fc.integer({ min: 0, max: 120 }),
  fc.constantFrom(...NUMERIC).map((ref) => ({ ref })),
);
const leafArb: fc.Arbitrary<Leaf> = fc.oneof(
  fc.record({
    method: fc.constant('param_value' as const),
    params: fc.constantFrom(...NUMERIC),
    operation: fc.constantFrom('gt', 'lt', 'gte', 'lte', 'eq', 'neq'),
    value: numberOperand,
  }),
  fc
    .tuple(fc.constantFrom(...NUMERIC), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 80 }))
    .map(([params, lo, width]) => ({
      method: 'param_value' as const,
      params,
      operation: 'between',
      value: [lo, lo + width],
    })),
  fc.record({
    method: fc.constant('param_value' as const),
    params: fc.constantFrom(...PARAMS.map((p) => p.code)),
    operation: fc.constantFrom('is_empty', 'is_not_empty'),
  }),
  fc.record({
    method: fc.constant('param_value' as const),
    params: fc.constant('qc3'),
    operation: fc.constantFrom('more_than_x_days', 'less_than_x_days'),
    value: fc.integer({ min: 0, max: 40 }),
  }),
  fc.record({
    method: fc.constant('param_value' as const),
    params: fc.constant('qd4'),
    operation: fc.constantFrom('eq', 'neq'),
    value: fc.constantFrom('gold', 'silver'),
  }),
);

type Action = 'BLOCK' | 'CONFIRM' | 'ADD' | 'ASK' | 'TEXT' | 'SUB' | 'HANDOVER';
function thenOf(action: Action, other: string): Rule['then'] {
  switch (action) {
    case 'BLOCK':
      return { action: 'BLOCK', message: 'Not possible.' };
    case 'CONFIRM':
      return { action: 'TEXT', message: 'Are you sure?', settings: { requires_confirmation: true } };
    case 'ADD':
      return { action: 'ADD_REQUIRED_PARAM', params: { mandatory: ['qb2'] } };
    case 'ASK':
      return { action: 'ASK_A_QUESTION', message: 'How many items exactly?' };
    case 'TEXT':
      return { action: 'TEXT', message: 'Noted.' };
    case 'SUB':
      return { action: 'ACTIVATE_SUB_TOOL', settings: { tool: other } };
    case 'HANDOVER':
      return { action: 'ACTIVATE_ANOTHER_TOOL', settings: { tool: other } };
  }
}
const ruleArb = fc.record({
  when: leafArb,
  action: fc.constantFrom<Action>('BLOCK', 'CONFIRM', 'ADD', 'ASK', 'TEXT', 'SUB', 'HANDOVER'),
});
const stageArb = fc.constantFrom('global', 'constraint', 'required_parameters', 'missing_info', 'success');

interface Generated {
  bundle: Bundle;
  /** Rule code → the leaf it reads. */
  leaves: Map<string, Leaf>;
  badFormula: boolean;
  badProfile: boolean;
}

const generatedArb: fc.Arbitrary<Generated> = fc
  .record({
    formula: fc.constantFrom(...GOOD_FORMULAS, ...BAD_FORMULAS),
    profile: fc.constantFrom<unknown>(40, 75, 'n/a'),
    tools: fc.tuple(
      ...TOOLS.map(() =>
        fc.record({
          confirm: fc.boolean(),
          required: fc.subarray(['qa1', 'qb2', 'qc3']),
        }),
      ),
    ),
    rules: fc.array(fc.tuple(ruleArb, stageArb, fc.nat({ max: 1 })), { maxLength: 6 }),
  })
  .map(({ formula, profile, tools, rules }) => {
    const leaves = new Map<string, Leaf>();
    const agentTools = TOOLS.map((t, i) => ({
      code: t.code,
      name: t.name,
      when_to_use: t.when_to_use,
      goal: t.name,
      main_tool: true,
      requires_confirmation: tools[i]!.confirm,
      config: { params: { required: tools[i]!.required } },
      rules: { pre: new Map<string, Rule[]>(), summary: new Map<string, Rule[]>() },
    }));
    const globals: Rule[] = [];
    rules.forEach(([{ when, action }, stage, toolIndex], n) => {
      const code = `R${n}X`;
      leaves.set(code, when);
      const tool = agentTools[toolIndex]!;
      const rule: Rule = { code, when, then: thenOf(action, TOOLS[1 - toolIndex]!.code) };
      if (stage === 'global') globals.push({ ...rule, applied_to: [tool.code] });
      else {
        const group = stage === 'success' ? tool.rules.summary : tool.rules.pre;
        const key = stage === 'success' ? 'success' : stage;
        group.set(key, [...(group.get(key) ?? []), rule]);
      }
    });
    const bundle = {
      schema_version: 1,
      parameters: [
        {
          code: 'qa1',
          type: 'numeric',
          usage: 'input',
          description: 'Amount of money',
          question: 'How much?',
        },
        {
          code: 'qb2',
          type: 'numeric',
          usage: 'input',
          description: 'Count of items',
          question: 'How many items?',
        },
        { code: 'qc3', type: 'date', usage: 'input', description: 'Travel date', question: 'Which date?' },
        {
          code: 'qd4',
          type: 'enum',
          usage: 'input',
          values: ['gold', 'silver'],
          description: 'Membership tier',
        },
        { code: 'qe5', type: 'numeric', usage: 'computed', computation: formula },
        { code: 'qf6', type: 'numeric', usage: 'output', description: 'Limit on file' },
      ],
      entities: [{ name: 'qme', type: 'user-profile', parameters: ['qf6'] }],
      integrations: [
        {
          code: 'qprof',
          type: 'API',
          settings: { response_mapping: { qf6: 'limit' }, test_curl_response: { limit: profile } },
        },
      ],
      rules: globals,
      agent_tools: agentTools.map((t) => ({
        ...t,
        rules: { pre: Object.fromEntries(t.rules.pre), summary: Object.fromEntries(t.rules.summary) },
      })),
    } as unknown as Bundle;
    return { bundle, leaves, badFormula: BAD_FORMULAS.includes(formula), badProfile: profile === 'n/a' };
  });

const messageArb = fc
  .tuple(
    fc.constantFrom('top up credit', 'book a trip', 'please', ''),
    fc.option(fc.integer({ min: 0, max: 150 }).map((n) => `${n} dollars`)),
    fc.option(fc.integer({ min: 0, max: 9 }).map((n) => `${n} items`)),
    fc.option(fc.constantFrom('on 2 April 2025', 'on 1 March 2025', 'today')),
    fc.option(fc.constantFrom('gold membership', 'silver membership')),
  )
  .map((parts) => parts.filter((p): p is string => !!p).join(', ') || 'hello');
const conversationArb = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: messageArb },
    { weight: 1, arbitrary: fc.constantFrom('yes go ahead', 'no, cancel') },
  ),
  { minLength: 1, maxLength: 3 },
);

function run(bundle: Bundle, messages: string[], userId = 'user-1', ids = 'msg'): TurnOutput[] {
  let state = engine.initialState(bundle, CLOCK, userId);
  return messages.map((text, i) => {
    const out = engine.runTurn({
      bundle,
      state,
      text,
      clock: CLOCK,
      interactionId: `${ids}-${i + 1}`,
      userId,
    });
    state = out.state;
    return out;
  });
}

// ---------------------------------------------------------------- renaming every code

const CODES = [
  ...PARAMS.map((p) => p.code),
  'qme',
  'qprof',
  ...TOOLS.map((t) => t.code),
  ...TOOLS.map((t) => t.code.toLowerCase()),
  ...Array.from({ length: 6 }, (_, n) => `R${n}X`),
];
const CODE_WORD = new RegExp(`\\b(${CODES.join('|')})\\b`, 'g');
/** Every code given another name that sorts the same way (so ordered outputs stay ordered). */
const renamed = (s: string) => s.replace(CODE_WORD, (c) => `${c}${/[A-Z]/.test(c) ? 'Z' : 'z'}`);
const renameBundle = (b: Bundle) => JSON.parse(renamed(JSON.stringify(b))) as Bundle;
/** A trace as text, without its interaction id, and without character positions in a formula (a renamed code shifts them). */
const withoutIds = (out: TurnOutput) =>
  JSON.stringify({ ...out.trace, interaction_id: '' }).replace(/at character \d+/g, 'at character N');

// ---------------------------------------------------------------- the properties

/** Violations of the invariants in one conversation's traces (empty when it holds). */
function violations(g: Generated, outs: TurnOutput[]): string[] {
  const found: string[] = [];
  for (const out of outs) {
    const trace = out.trace;
    found.push(...traceViolations(trace));
    const values = readState(out.state).values;
    for (const r of trace.rules_evaluated) {
      const leaf = g.leaves.get(r.rule_id);
      if (!leaf) continue;
      const reads = [leaf.params, ...(isRef(leaf.value) ? [leaf.value.ref] : [])];
      const bad =
        (g.badFormula && reads.includes('qe5')) ||
        (g.badProfile && reads.includes('qf6') && !['is_empty', 'is_not_empty'].includes(leaf.operation));
      if (bad && r.result !== 'error')
        found.push(`${r.rule_id} reads a bad value, yet ${r.result}: ${r.reason}`);
      if (bad || r.result === 'error' || r.result === 'not_applicable') continue;
      for (const code of reads) {
        const shown =
          leaf.operation.endsWith('empty') && values[code] === undefined ? 'empty' : showValue(values[code]);
        if (!r.reason.includes(shown))
          found.push(`${r.rule_id}: reason does not show ${code} = ${shown}: ${r.reason}`);
      }
    }
  }
  return found;
}

const isRef = (v: unknown): v is { ref: string } =>
  !!v && typeof v === 'object' && typeof (v as { ref?: unknown }).ref === 'string';

function check(property: fc.IProperty<[Generated, string[]]>) {
  const result = fc.check(property, { numRuns: RUNS, seed: SEED });
  if (result.failed)
    throw new Error(
      `Property failed with seed ${SEED} (replay: THREADLINE_PROPERTY_SEED=${SEED}, path ${result.counterexamplePath}):\n${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`,
    );
}

describe(`invariants over ${RUNS} generated bundles and conversations (seed ${SEED})`, () => {
  it('decisions follow rule results; reasons show the values compared; bad values are errors; codes and tasks do not matter', () => {
    check(
      fc.property(generatedArb, conversationArb, (g, messages) => {
        const outs = run(g.bundle, messages);
        const found = violations(g, outs);
        if (found.length > 0) throw new Error(`${found.join('\n')}\nmessages: ${JSON.stringify(messages)}`);
        // On another task (another user, other interaction ids), with every code renamed.
        const elsewhere = run(renameBundle(g.bundle), messages, 'someone-else', 'other');
        expect(elsewhere.map(withoutIds)).toEqual(outs.map((o) => renamed(withoutIds(o))));
      }),
    );
  });
});

describe("every trace of the example agents' suites", () => {
  for (const agent of exampleAgents()) {
    const dir = new URL(`../server/agents/${agent.id}/tests/`, import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.case.json'));
    it(`${agent.id}: ${files.length} cases keep the invariants`, () => {
      for (const file of files) {
        const tc = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as {
          clock: string;
          version_tag?: string;
          turns: { say: string }[];
        };
        const bundle = exampleBundle(agent.id, tc.version_tag ? { version_tag: tc.version_tag } : {});
        let state = engine.initialState(bundle, tc.clock, 'user-1');
        tc.turns.forEach((turn, i) => {
          const out = engine.runTurn({
            bundle,
            state,
            text: turn.say,
            clock: tc.clock,
            interactionId: `m-${i}`,
            userId: 'user-1',
          });
          state = out.state;
          expect(traceViolations(out.trace), `${file} turn ${i + 1}`).toEqual([]);
        });
      }
    });
  }
});
