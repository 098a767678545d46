/**
 * Compares what a turn did with what its case expects. Pure: the observed turn is the agent's
 * reply and the turn's trace, however they were obtained (embedded engine or HTTP).
 */
import { canonicalJson } from '../bundle/hash';
import { NOT_EVALUATED, type TurnExpectation, type WelcomeExpectation } from './format';

/** The parts of a trace a comparison reads (a subset of the spec's trace object). */
export interface ObservedTrace {
  decision: string;
  rules_evaluated: readonly { rule_id: string; result: string; reason: string }[];
  tools_invoked: readonly { tool: string; result: string }[];
  entities: Readonly<Record<string, unknown>>;
  /** The reference engine's `decisions`: its `call_integration` entries say which integrations were called. */
  decisions?: unknown;
}

export interface ObservedTurn {
  reply: string;
  trace: ObservedTrace;
  /** The reply's follow-up suggestions; absent when the driver does not report them. */
  suggestions?: readonly string[];
}

/** What a new thread greeted with. */
export interface ObservedWelcome {
  message: string;
  suggestions: readonly string[];
}

export type MismatchKind =
  'decision' | 'rule' | 'tool' | 'integration' | 'parameter' | 'reply' | 'suggestions' | 'welcome';

export interface Mismatch {
  kind: MismatchKind;
  /** The rule id, tool code, parameter code or text concerned; '' for the decision. */
  subject: string;
  expected: string;
  actual: string;
  /** For a rule: the engine's reason for the actual result. */
  reason?: string;
}

const show = (value: unknown) => (value === undefined ? 'not filled' : canonicalJson(value));

/**
 * The value held for a parameter: `entities[code]`, or the one `entities["<entity>.<code>"]`.
 * Ambiguous when several entities hold the parameter (then name it `entity.code`).
 */
function parameterValue(
  entities: Readonly<Record<string, unknown>>,
  code: string,
): { found: true; value: unknown } | { found: false; ambiguous: string[] } {
  if (Object.hasOwn(entities, code)) return { found: true, value: entities[code] };
  const suffix = `.${code}`;
  const keys = Object.keys(entities).filter((k) => k.endsWith(suffix));
  if (keys.length === 1) return { found: true, value: entities[keys[0]!] };
  return { found: false, ambiguous: keys };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Integration code → the outcomes of its calls in the turn: the `call_integration` decisions
 * (the tool's action and `API` rules alike), and the `integration` of each `tools_invoked` entry
 * for a trace without decisions.
 */
function integrationCalls(trace: ObservedTrace): Map<string, string[]> {
  const calls = new Map<string, string[]>();
  const add = (code: unknown, result: unknown) => {
    if (typeof code !== 'string') return;
    const list = calls.get(code) ?? calls.set(code, []).get(code)!;
    list.push(typeof result === 'string' ? result : 'unknown');
  };
  const decisions = Array.isArray(trace.decisions) ? (trace.decisions as unknown[]) : [];
  for (const d of decisions) if (isRecord(d) && d.type === 'call_integration') add(d.integration, d.result);
  if (calls.size === 0)
    for (const t of trace.tools_invoked) add((t as { integration?: unknown }).integration, t.result);
  return calls;
}

/** Texts that must and must not be in `text`: one mismatch per text that fails. */
function textMismatches(
  kind: 'reply' | 'welcome',
  text: string,
  contains: readonly string[] = [],
  notContains: readonly string[] = [],
): Mismatch[] {
  const out: Mismatch[] = [];
  for (const t of contains)
    if (!text.includes(t))
      out.push({ kind, subject: t, expected: `contains ${JSON.stringify(t)}`, actual: text });
  for (const t of notContains)
    if (text.includes(t))
      out.push({ kind, subject: t, expected: `does not contain ${JSON.stringify(t)}`, actual: text });
  return out;
}

function suggestionsMismatch(
  kind: 'suggestions' | 'welcome',
  want: readonly string[],
  got: readonly string[] | undefined,
): Mismatch | null {
  const expected = JSON.stringify(want);
  if (got === undefined) return { kind, subject: 'suggestions', expected, actual: 'not reported' };
  const actual = JSON.stringify(got);
  return actual === expected ? null : { kind, subject: 'suggestions', expected, actual };
}

/** Compares a new thread's greeting with the case's `welcome` expectation. */
export function compareWelcome(expect: WelcomeExpectation, observed: ObservedWelcome): Mismatch[] {
  const out = textMismatches(
    'welcome',
    observed.message,
    expect.message_contains,
    expect.message_not_contains,
  );
  if (expect.suggestions) {
    const m = suggestionsMismatch('welcome', expect.suggestions, observed.suggestions);
    if (m) out.push(m);
  }
  return out;
}

export function compareTurn(expect: TurnExpectation, observed: ObservedTurn): Mismatch[] {
  const out: Mismatch[] = [];
  const { trace } = observed;
  if (trace.decision !== expect.decision)
    out.push({
      kind: 'decision',
      subject: '',
      expected: expect.decision,
      actual: trace.decision || '(none)',
    });

  if (expect.rules) {
    const evaluated = new Map<string, { result: string; reason: string }>();
    for (const r of trace.rules_evaluated) if (!evaluated.has(r.rule_id)) evaluated.set(r.rule_id, r);
    for (const [rule, result] of Object.entries(expect.rules)) {
      const got = evaluated.get(rule);
      if (result === NOT_EVALUATED) {
        if (got)
          out.push({
            kind: 'rule',
            subject: rule,
            expected: NOT_EVALUATED,
            actual: got.result,
            reason: got.reason,
          });
      } else if (!got) out.push({ kind: 'rule', subject: rule, expected: result, actual: 'not evaluated' });
      else if (got.result !== result)
        out.push({ kind: 'rule', subject: rule, expected: result, actual: got.result, reason: got.reason });
    }
  }

  if (expect.tools_invoked) {
    const invoked = new Set(trace.tools_invoked.map((t) => t.tool));
    const wanted = new Set(expect.tools_invoked);
    const actual = invoked.size ? [...invoked].join(', ') : 'no tool';
    for (const tool of wanted)
      if (!invoked.has(tool))
        out.push({
          kind: 'tool',
          subject: tool,
          expected: 'invoked',
          actual: `not invoked (invoked: ${actual})`,
        });
    for (const tool of invoked)
      if (!wanted.has(tool))
        out.push({ kind: 'tool', subject: tool, expected: 'not invoked', actual: 'invoked' });
  }

  if (expect.integrations) {
    const calls = integrationCalls(trace);
    for (const [code, want] of Object.entries(expect.integrations)) {
      const results = calls.get(code) ?? [];
      const actual = results.length ? `called (${results.join(', ')})` : 'not called';
      const holds =
        want === 'called'
          ? results.length > 0
          : want === 'not_called'
            ? results.length === 0
            : results.includes(want);
      if (!holds) out.push({ kind: 'integration', subject: code, expected: want.replace('_', ' '), actual });
    }
  }

  if (expect.parameters) {
    for (const [code, want] of Object.entries(expect.parameters)) {
      const got = parameterValue(trace.entities, code);
      const expected = want === null ? 'not filled' : show(want);
      if (!got.found) {
        if (want === null) continue;
        const actual = got.ambiguous.length
          ? `ambiguous: held by ${got.ambiguous.join(', ')} (name one of them)`
          : 'not filled';
        out.push({ kind: 'parameter', subject: code, expected, actual });
      } else if (want === null ? got.value !== null : canonicalJson(got.value) !== canonicalJson(want)) {
        out.push({ kind: 'parameter', subject: code, expected, actual: show(got.value) });
      }
    }
  }

  out.push(...textMismatches('reply', observed.reply, expect.reply_contains, expect.reply_not_contains));
  if (expect.suggestions) {
    const m = suggestionsMismatch('suggestions', expect.suggestions, observed.suggestions);
    if (m) out.push(m);
  }
  return out;
}

/** `contains "x"` → `contain "x"`, `does not contain "x"` → `not contain "x"`. */
const toVerb = (expected: string) =>
  expected.startsWith('contains ')
    ? `contain ${expected.slice(9)}`
    : expected.replace('does not contain', 'not contain');

/** One line per mismatch, for reports. */
export function describeMismatch(m: Mismatch): string {
  switch (m.kind) {
    case 'decision':
      return `decision: expected ${m.expected}, got ${m.actual}`;
    case 'rule':
      return `rule ${m.subject}: expected ${m.expected}, got ${m.actual}${m.reason ? ` (${m.reason})` : ''}`;
    case 'tool':
      return `tool ${m.subject}: expected ${m.expected}, ${m.actual}`;
    case 'parameter':
      return `parameter ${m.subject}: expected ${m.expected}, got ${m.actual}`;
    case 'integration':
      return `integration ${m.subject}: expected ${m.expected}, ${m.actual}`;
    case 'reply':
      return `reply: expected to ${toVerb(m.expected)}, got ${JSON.stringify(m.actual)}`;
    case 'suggestions':
      return `suggestions: expected ${m.expected}, got ${m.actual}`;
    case 'welcome':
      return m.subject === 'suggestions'
        ? `welcome suggestions: expected ${m.expected}, got ${m.actual}`
        : `welcome message: expected to ${toVerb(m.expected)}, got ${JSON.stringify(m.actual)}`;
  }
}
