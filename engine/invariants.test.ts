/**
 * Invariants over generated bundles and conversations (fast-check, seeded; the seed is printed
 * when a property fails, and `THREADLINE_PROPERTY_SEED` replays it), and over every example
 * agent's suite:
 * - the decision is the one the rule results give, and every reason names its outcome;
 * - every reason of a rule decided on known values shows the values it compared (both sides of a
 *   `{"ref"}`);
 * - a rule reading a present but bad value (a formula that cannot run, a profile value not of its
 *   type) is `error`, never skipped;
 * - the same bundle and messages give the same trace on any task, and after renaming every code;
 * and over generated bundles whose tools call integrations (and whose `API` rules look things up):
 * - a tool's action runs at most once per request, so a sub-tool's integration is called once;
 * - a tool in `tools_invoked` ran its action: none of its own checks stopped it in that turn;
 * - a reply that asks for confirmation shows every confirmation it asks for: each confirmation
 *   rule's question, and the tool's values restated when the tool asks itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../src/contract/bundle';
import {
  confirmQuestion,
  generatedArb,
  generatedWithCallsArb,
  PARAMS,
  TOOLS,
  type Generated,
} from './fixtures/generated-bundles.fixture';
import { exampleAgents, exampleBundle } from '../server/agents/converse';
import type { TurnOutput } from './contract';
import { engine } from './index';
import { readState } from './state';
import { traceViolations } from './trace-invariants';
import { formatNumber, isFilled, showValue } from './values';

const CLOCK = '2025-03-15T12:00:00Z';
const RUNS = 1000;
const SEED = Number(process.env.THREADLINE_PROPERTY_SEED ?? 20250315);

// ---------------------------------------------------------------- generated bundles

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

// ---------------------------------------------------------------- what the user can trust

type Decision = { type?: string; tool?: string; via?: string; by?: string };
const decisionsOf = (out: TurnOutput) => (out.trace.decisions ?? []) as Decision[];

/** A request: the turns from a tool started anew until no tool is pending. */
function requests(outs: TurnOutput[]): TurnOutput[][] {
  const out: TurnOutput[][] = [];
  let open = false;
  for (const turn of outs) {
    const first = decisionsOf(turn).find(
      (d) => d.type === 'activate_tool' || d.type === 'tool_text_response',
    );
    if (!open || first?.via !== 'continue') out.push([]);
    out.at(-1)!.push(turn);
    open = readState(turn.state).pending !== null;
  }
  return out;
}

/** A sub-tool's integration (every integration of the generated bundles answers) is called once per request. */
function callsOncePerRequest(outs: TurnOutput[]): string[] {
  const found: string[] = [];
  requests(outs).forEach((turns, n) => {
    const ran = new Map<string, number>();
    for (const turn of turns)
      for (const call of turn.trace.tools_invoked) ran.set(call.tool, (ran.get(call.tool) ?? 0) + 1);
    for (const [tool, times] of ran)
      if (times > 1) found.push(`request ${n + 1}: ${tool}'s action ran ${times} times`);
  });
  return found;
}

/** A tool in tools_invoked ran its action: none of its own checks blocked it or waited in that turn. */
function invokedRan(g: Generated, out: TurnOutput): string[] {
  const found: string[] = [];
  const invoked = new Set(out.trace.tools_invoked.map((t) => t.tool));
  for (const r of out.trace.rules_evaluated) {
    if (r.result !== 'blocked' && r.result !== 'requires_confirmation') continue;
    const owner = g.owners.get(r.rule_id);
    // A summary rule runs after the action; `<TOOL>.params.required` and the like name their tool.
    if (owner?.stage === 'success') continue;
    const tool = owner ? owner.tool : r.rule_id.split('.')[0]!;
    if (invoked.has(tool)) found.push(`${tool} is in tools_invoked, yet ${r.rule_id} is ${r.result}`);
  }
  return found;
}

/** Every confirmation a request_confirmation reply asks for is in it. */
function confirmationsShown(g: Generated, out: TurnOutput): string[] {
  if (out.trace.decision !== 'request_confirmation') return [];
  const found: string[] = [];
  const values = readState(out.state).values;
  for (const r of out.trace.rules_evaluated) {
    if (r.result !== 'requires_confirmation') continue;
    if (g.owners.has(r.rule_id)) {
      if (!out.reply.includes(confirmQuestion(r.rule_id, true)))
        found.push(`${r.rule_id} asks for confirmation, yet the reply does not ask it: ${out.reply}`);
      continue;
    }
    const tool = TOOLS.find((t) => `${t.code}.requires_confirmation` === r.rule_id)!;
    const spec = (g.bundle.agent_tools ?? []).find((t) => t.code === tool.code)!;
    const shown = [
      `Please confirm: ${tool.name.toLowerCase()}`,
      ...(spec.config?.params?.required ?? [])
        .filter((c): c is string => typeof c === 'string' && isFilled(values[c]))
        .map((c) => `${c}: ${typeof values[c] === 'number' ? formatNumber(values[c]) : String(values[c])}`),
    ];
    for (const words of shown)
      if (!out.reply.includes(words))
        found.push(`${r.rule_id}: the reply does not restate "${words}": ${out.reply}`);
  }
  return found;
}

describe(`what the user can trust, over ${RUNS} generated bundles that call integrations (seed ${SEED})`, () => {
  it('a sub-tool runs once per request; a tool invoked ran its action; a confirmation asked is shown', () => {
    check(
      fc.property(generatedWithCallsArb, conversationArb, (g, messages) => {
        const outs = run(g.bundle, messages);
        const found = [
          ...callsOncePerRequest(outs),
          ...outs.flatMap((out) => [
            ...traceViolations(out.trace),
            ...invokedRan(g, out),
            ...confirmationsShown(g, out),
          ]),
        ];
        if (found.length > 0) throw new Error(`${found.join('\n')}\nmessages: ${JSON.stringify(messages)}`);
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
