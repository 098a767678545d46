/**
 * What the turn index keeps of one stored turn: the columns searched and counted by
 * `GET /reference/v1/turns` (agent, version, bundle, task, user, time, intent, decision, the
 * deciding rule, the message and reply texts) and its rows per rule, tool and value. Pure: the
 * same turn gives the same entry. Every part is bounded (texts and values cut, lists capped), so
 * indexing a turn costs at most a fixed multiple of what storing it does.
 */
import { decisionCause } from '../../src/lib/decision-cause';
import type { TurnRecord } from './store';

/** Longest message or reply text kept for text search (the turn itself keeps the whole text). */
export const MAX_INDEXED_TEXT = 4000;
/** Longest value text kept (longer values are cut; `code=value` matches their first part). */
export const MAX_VALUE_TEXT = 200;
/** At most this many rows per turn for each of rules, tools and values. */
export const MAX_ROWS_PER_KIND = 10_000;

export interface IndexedRule {
  ruleId: string;
  result: string;
  ruleType: string;
}
export interface IndexedTool {
  tool: string;
  /** True when the tool was invoked (its integration called), false when only considered. */
  invoked: boolean;
}
export interface IndexedValue {
  /** A parameter code (`transaction-amount`) or an entity key (`transaction.transaction-amount`). */
  code: string;
  /** The value as text (numbers as JSON writes them, booleans as true/false), cut to MAX_VALUE_TEXT. */
  text: string;
  /** The value as a number when it is one (or a text that is exactly a number), else null. */
  num: number | null;
  /** The value's text when it is an ISO date or date-time (compared as text), else null. */
  date: string | null;
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
  rules: IndexedRule[];
  tools: IndexedTool[];
  values: IndexedValue[];
}

const text = (v: unknown): string => (typeof v === 'string' ? cut(v, MAX_VALUE_TEXT) : '');
/** Cut to `max` characters, without NUL (which PostgreSQL's text cannot hold). */
const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s).replaceAll('\u0000', '');
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T|$)/;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A finite number, or a text that is exactly one ("120", "-3.5"); dates and ids are not numbers. */
export function numericValue(v: unknown): number | null {
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
  turn: TurnRecord,
  seq: number,
): TurnIndexEntry {
  const trace = turn.trace as unknown as Record<string, unknown>;
  const rulesIn = Array.isArray(trace.rules_evaluated) ? (trace.rules_evaluated as unknown[]) : [];
  const rules: IndexedRule[] = [];
  const seenRules = new Set<string>();
  for (const r of rulesIn) {
    if (rules.length >= MAX_ROWS_PER_KIND) break;
    if (!isRecord(r)) continue;
    const rule = { ruleId: text(r.rule_id), result: text(r.result), ruleType: text(r.rule_type) };
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
  return {
    taskId: turn.taskId,
    seq,
    interactionId: turn.interactionId,
    agentId: task.agentId,
    versionId: turn.versionId,
    bundleHash: turn.bundleHash,
    userId: task.userId,
    createdAt: turn.reply.createdAt,
    intent: text(trace.intent),
    decision: text(trace.decision),
    decidingRule: decidingIndex === undefined ? null : rulesForCause[decidingIndex]!.rule_id || null,
    message: cut(turn.userMessage.text, MAX_INDEXED_TEXT),
    reply: cut(turn.reply.text, MAX_INDEXED_TEXT),
    rules,
    tools: [...tools].map(([tool, inv]) => ({ tool, invoked: inv })),
    values,
  };
}
