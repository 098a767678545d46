/**
 * What the turn index keeps of one stored turn: the columns searched and counted by
 * `GET /reference/v1/turns` (agent, version, bundle, task, user, time, intent, decision, the
 * deciding rule, the message and reply texts), its rules with their results and its tools (for
 * the counts), the terms of its full-text row (`turn-terms.ts`: rules, tools, decision, intent,
 * parameters and their values) and its numbers and dates (compared by `code>n`, `code<n`). Pure:
 * the same turn gives the same entry. Every part is bounded (texts and values cut, lists capped),
 * so indexing a turn costs at most a fixed multiple of what storing it does.
 */
import { decisionCause } from '../src/lib/decision-cause';
import type { Trace } from '../src/contract/trace';

/** Longest message or reply text kept for text search (the turn itself keeps the whole text). */
const MAX_INDEXED_TEXT = 4000;
/** Longest value text kept (longer values are cut; `code=value` matches their first part). */
const MAX_VALUE_TEXT = 200;
/** At most this many of each of rules, tools and values per turn. */
const MAX_ROWS_PER_KIND = 10_000;

export interface IndexedRule {
  ruleId: string;
  result: string;
}
export interface IndexedTool {
  tool: string;
  /** True when the tool's action ran (it is in `tools_invoked`), false when only considered (a lookup of its `API` rule included). */
  invoked: boolean;
}
interface IndexedValue {
  /** A parameter code (`transaction-amount`) or an entity key (`transaction.transaction-amount`). */
  code: string;
  /** The value as text (numbers as JSON writes them, booleans as true/false), cut to MAX_VALUE_TEXT. */
  text: string;
  /** The value as a number when it is one (or a text that is exactly a number), else null. */
  num: number | null;
  /** The value's text when it is an ISO date or date-time (compared as text), else null. */
  date: string | null;
}
/** A value that is a number or a date: kept in the turn's row, for `code>n` and `code<n`. */
export type IndexedRange = Omit<IndexedValue, 'text'>;

/** The kinds of fact a turn's terms name (see the store's `turn-terms.ts` for their tokens). */
export type TermKind =
  'rule' | 'rule-result' | 'tool' | 'tool-invoked' | 'decision' | 'intent' | 'param' | 'value';

/**
 * The token of a fact: its kind and its parts (a rule id and its result, a code and its value…).
 * Given by the store that keeps the index (a hash of the fact), so this module stays pure.
 */
export type FactToken = (kind: TermKind, first: string, second?: string) => string;

/** What the entry is made from: a stored turn's parts (the store's `TurnRecord` has them). */
export interface IndexedTurn {
  taskId: string;
  interactionId: string;
  userMessage: { text: string };
  reply: { createdAt: string; text: string };
  trace: Trace;
  state: Record<string, unknown>;
  bundleHash: string | null;
  versionId: string;
}

export interface TurnIndexEntry {
  taskId: string;
  seq: number;
  interactionId: string;
  agentId: string;
  versionId: string;
  bundleHash: string | null;
  userId: string;
  /** When the reply was given (ISO-8601, UTC). */
  createdAt: string;
  intent: string;
  decision: string;
  /** The rule the decision names first ("blocked by DISPUTE_WINDOW …"), or null. */
  decidingRule: string | null;
  message: string;
  reply: string;
  /** Each rule with its result, once (counted by the facets). */
  rules: IndexedRule[];
  /** Each tool considered or invoked, once (counted by the facets). */
  tools: IndexedTool[];
  /** The tokens of the turn's facts (`turn-terms.ts`), each once. */
  terms: string[];
  /** The values that are numbers or dates. */
  ranges: IndexedRange[];
}

const text = (v: unknown): string => (typeof v === 'string' ? cut(v, MAX_VALUE_TEXT) : '');
/** Cut to `max` characters, without NUL (which PostgreSQL's text cannot hold). */
const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s).replaceAll('\u0000', '');
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T|$)/;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A finite number, or a text that is exactly one ("120", "-3.5"); dates and ids are not numbers. */
function numericValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || v.length === 0 || v.length > 40) return null;
  const s = v.trim();
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

function indexedValue(code: string, v: unknown): IndexedValue | null {
  if (v === null || v === undefined || code.length === 0) return null;
  let shown: string;
  if (typeof v === 'string') shown = v;
  else if (typeof v === 'number' || typeof v === 'boolean') shown = String(v);
  else return null; // lists and objects are not searched by value
  const shownText = cut(shown, MAX_VALUE_TEXT);
  return {
    code: cut(code, MAX_VALUE_TEXT),
    text: shownText,
    num: numericValue(v),
    date: typeof v === 'string' && ISO_DATE.test(shownText) ? shownText : null,
  };
}

/** The index entry of a turn run in a task of `agentId` for `userId`, at thread position `seq`. */
export function turnIndexEntry(
  task: { agentId: string; userId: string },
  turn: IndexedTurn,
  seq: number,
  term: FactToken,
): TurnIndexEntry {
  const trace = turn.trace as unknown as Record<string, unknown>;
  const rulesIn = Array.isArray(trace.rules_evaluated) ? (trace.rules_evaluated as unknown[]) : [];
  const rules: IndexedRule[] = [];
  const seenRules = new Set<string>();
  for (const r of rulesIn) {
    if (rules.length >= MAX_ROWS_PER_KIND) break;
    if (!isRecord(r)) continue;
    const rule = { ruleId: text(r.rule_id), result: text(r.result) };
    const key = `${rule.ruleId}\u0000${rule.result}`;
    if (!rule.ruleId || seenRules.has(key)) continue;
    seenRules.add(key);
    rules.push(rule);
  }

  const tools = new Map<string, boolean>();
  const considered = Array.isArray(trace.tools_considered) ? (trace.tools_considered as unknown[]) : [];
  const invoked = Array.isArray(trace.tools_invoked) ? (trace.tools_invoked as unknown[]) : [];
  for (const t of considered)
    if (typeof t === 'string' && t && tools.size < MAX_ROWS_PER_KIND) tools.set(t, false);
  for (const call of invoked) {
    const t = isRecord(call) ? text(call.tool) : '';
    if (t && (tools.has(t) || tools.size < MAX_ROWS_PER_KIND)) tools.set(t, true);
  }

  // Parameter values known after the turn (the engine's state), then the trace's entity values.
  const values: IndexedValue[] = [];
  const seenCodes = new Set<string>();
  const add = (code: string, v: unknown) => {
    if (values.length >= MAX_ROWS_PER_KIND || seenCodes.has(code)) return;
    const value = indexedValue(code, v);
    if (!value) return;
    seenCodes.add(code);
    values.push(value);
  };
  const stateValues = isRecord(turn.state) && isRecord(turn.state.values) ? turn.state.values : {};
  for (const code of Object.keys(stateValues)) add(code, stateValues[code]);
  const entities = isRecord(trace.entities) ? trace.entities : {};
  for (const key of Object.keys(entities)) add(key, entities[key]);

  const rulesForCause = rulesIn.filter(isRecord).map((r) => ({
    rule_id: text(r.rule_id),
    predicate: text(r.predicate),
    result: text(r.result),
    reason: text(r.reason),
  }));
  const cause = decisionCause({
    decision: text(trace.decision),
    rules_evaluated: rulesForCause,
    decisions: trace.decisions,
  });
  const decidingIndex = cause?.ruleIndices[0];
  const toolList = [...tools].map(([tool, inv]) => ({ tool, invoked: inv }));
  const intent = text(trace.intent);
  const decision = text(trace.decision);
  return {
    taskId: turn.taskId,
    seq,
    interactionId: turn.interactionId,
    agentId: task.agentId,
    versionId: turn.versionId,
    bundleHash: turn.bundleHash,
    userId: task.userId,
    createdAt: turn.reply.createdAt,
    intent,
    decision,
    decidingRule: decidingIndex === undefined ? null : rulesForCause[decidingIndex]!.rule_id || null,
    message: cut(turn.userMessage.text, MAX_INDEXED_TEXT),
    reply: cut(turn.reply.text, MAX_INDEXED_TEXT),
    rules,
    tools: toolList,
    terms: termsOf(term, rules, toolList, decision, intent, values),
    ranges: values
      .filter((v) => v.num !== null || v.date !== null)
      .map(({ code, num, date }) => ({ code, num, date })),
  };
}

/** The tokens of a turn's facts, each once. */
function termsOf(
  term: FactToken,
  rules: readonly IndexedRule[],
  tools: readonly IndexedTool[],
  decision: string,
  intent: string,
  values: readonly IndexedValue[],
): string[] {
  const terms = new Set<string>([term('decision', decision), term('intent', intent)]);
  for (const r of rules) {
    terms.add(term('rule', r.ruleId));
    terms.add(term('rule-result', r.ruleId, r.result));
  }
  for (const t of tools) {
    terms.add(term('tool', t.tool));
    if (t.invoked) terms.add(term('tool-invoked', t.tool));
  }
  for (const v of values) {
    terms.add(term('param', v.code));
    terms.add(term('value', v.code, v.text));
  }
  return [...terms];
}
