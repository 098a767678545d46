/**
 * Compares what a turn did with what its case expects. Pure: the observed turn is the agent's
 * reply and the turn's trace, however they were obtained (embedded engine or HTTP).
 */
import { canonicalJson } from '../bundle/hash';
import type { TurnExpectation } from './format';

/** The parts of a trace a comparison reads (a subset of the spec's trace object). */
export interface ObservedTrace {
  decision: string;
  rules_evaluated: readonly { rule_id: string; result: string; reason: string }[];
  tools_invoked: readonly { tool: string; result: string }[];
  entities: Readonly<Record<string, unknown>>;
}

export interface ObservedTurn {
  reply: string;
  trace: ObservedTrace;
}

export type MismatchKind = 'decision' | 'rule' | 'tool' | 'parameter' | 'reply';

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
      if (!got) out.push({ kind: 'rule', subject: rule, expected: result, actual: 'not evaluated' });
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

  if (expect.reply_contains) {
    for (const text of expect.reply_contains)
      if (!observed.reply.includes(text))
        out.push({
          kind: 'reply',
          subject: text,
          expected: `contains ${JSON.stringify(text)}`,
          actual: observed.reply,
        });
  }
  return out;
}

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
    case 'reply':
      return `reply: expected to contain ${JSON.stringify(m.subject)}, got ${JSON.stringify(m.actual)}`;
  }
}
