/**
 * The search over the turns this browser has fetched, for a service that offers no turn search
 * (a deployed service): the same filter language as the reference service's (`find.ts`), read
 * with the same rules (a bad value is said, never ignored), matched here turn by turn, with the
 * same counts. Within a field the values are alternatives; across fields all must hold. Pure: no
 * React, no I/O; linear in the turns given, which the caller bounds.
 */
import type { TurnFacetsIn, TurnHitIn } from '../../api/turn-search';
import type { TolerantTrace } from '../../contract/trace';
import {
  NUMBER,
  parseTurnQuery,
  type Comparison,
  type Condition,
  type ParamFilter,
  type TurnQuery,
} from '../../contract/turn-query';
import { decisionCause } from '../../lib/decision-cause';
import { emptyRecord } from '../../lib/own-records';

/** What a fetched turn is searched by: its row as a result, and its rules, tools and values. */
export interface FetchedTurn {
  hit: TurnHitIn;
  rules: { rule_id: string; result: string }[];
  tools: { tool: string; invoked: boolean }[];
  /** Parameter and entity values (code → value). */
  values: ReadonlyMap<string, unknown>;
}

/** A turn of a thread this browser holds, with what the thread says of itself. */
export interface FetchedTurnSource {
  taskId: string;
  agentId: string;
  userId: string;
  /** Position in the thread, from 1. */
  turn: number;
  interactionId: string;
  message: string;
  reply: string;
  decision: string;
  createdAt: string;
  versionId: string;
  bundleHash: string | null;
  trace: TolerantTrace | undefined;
}

/** Characters of the message and reply a result carries (as the service's results). */
const HIT_TEXT = 300;

export function fetchedTurnOf(s: FetchedTurnSource): FetchedTurn {
  const trace = s.trace;
  const cause = trace ? decisionCause(trace) : null;
  const deciding = cause?.ruleIndices[0];
  const rules: FetchedTurn['rules'] = [];
  const seen = new Set<string>();
  for (const r of trace?.rules_evaluated ?? []) {
    const key = `${r.rule_id}\u0000${r.result}`;
    if (!r.rule_id || seen.has(key)) continue;
    seen.add(key);
    rules.push({ rule_id: r.rule_id, result: r.result });
  }
  const tools = new Map<string, boolean>();
  for (const t of trace?.tools_considered ?? []) if (t) tools.set(t, false);
  for (const call of trace?.tools_invoked ?? []) if (call.tool) tools.set(call.tool, true);
  return {
    hit: {
      task_id: s.taskId,
      interaction_id: s.interactionId,
      turn: s.turn,
      agent_id: s.agentId,
      version_id: s.versionId,
      bundle_hash: s.bundleHash,
      user_id: s.userId,
      created_at: s.createdAt,
      intent: trace?.intent ?? '',
      decision: trace?.decision || s.decision,
      deciding_rule: deciding === undefined ? null : trace?.rules_evaluated[deciding]?.rule_id || null,
      message: s.message.slice(0, HIT_TEXT),
      reply: s.reply.slice(0, HIT_TEXT),
    },
    rules,
    tools: [...tools].map(([tool, invoked]) => ({ tool, invoked })),
    values: new Map(Object.entries(trace?.entities ?? {})),
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T|$)/;

/** Letter and digit runs, lowercased. */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Reads a search as the service does; throws a `TurnQueryError` naming the field it cannot read. */
export function readFetchedQuery(find: string): TurnQuery {
  // Field names are typed by the user: a record with no prototype, so `constructor` is a field.
  const fields = emptyRecord<string[]>();
  for (const [key, value] of new URLSearchParams(find)) (fields[key] ??= []).push(value);
  return parseTurnQuery(fields);
}

/** A value as the service indexes it: text, number or date; lists and objects are not searched. */
function valueForms(v: unknown): { text: string; num: number | null; date: string | null } | null {
  if (typeof v === 'number') return Number.isFinite(v) ? { text: String(v), num: v, date: null } : null;
  if (typeof v === 'boolean') return { text: String(v), num: null, date: null };
  if (typeof v !== 'string') return null;
  const s = v.trim();
  const num = s.length <= 40 && NUMBER.test(s) ? Number(s) : null;
  return { text: v, num, date: ISO_DATE.test(v) ? v : null };
}

function paramHolds(p: ParamFilter, values: ReadonlyMap<string, unknown>): boolean {
  const forms = values.has(p.code) ? valueForms(values.get(p.code)) : null;
  if (!forms) return false;
  if (p.op === 'present') return true;
  if (p.op === '=') return forms.text === p.value;
  if ('number' in p) return forms.num !== null && compares(p.op, forms.num, p.number);
  return forms.date !== null && compares(p.op, forms.date, p.date);
}

function compares<T extends number | string>(op: Comparison, a: T, b: T): boolean {
  switch (op) {
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
  }
}

/** A `where` condition: a parameter filter, or the parameter having no value. */
const conditionHolds = (c: Condition, values: ReadonlyMap<string, unknown>): boolean =>
  c.op === 'absent'
    ? !(values.has(c.code) && valueForms(values.get(c.code)) !== null)
    : paramHolds(c, values);

const oneOf = (values: readonly string[], v: string) => values.length === 0 || values.includes(v);

export function matchesFetched(q: TurnQuery, t: FetchedTurn): boolean {
  const h = t.hit;
  if (
    !oneOf(q.agents, h.agent_id) ||
    !oneOf(q.decisions, h.decision) ||
    !oneOf(q.intents, h.intent) ||
    !oneOf(q.versions, h.version_id) ||
    !oneOf(q.bundles, h.bundle_hash ?? '') ||
    !oneOf(q.tasks, h.task_id) ||
    !oneOf(q.users, h.user_id)
  )
    return false;
  if (
    q.rules.length &&
    !q.rules.some((f) => t.rules.some((r) => r.rule_id === f.ruleId && (!f.result || r.result === f.result)))
  )
    return false;
  if (
    q.tools.length &&
    !q.tools.some((f) => t.tools.some((x) => x.tool === f.tool && (!f.invoked || x.invoked)))
  )
    return false;
  if (q.params.length && !q.params.some((p) => paramHolds(p, t.values))) return false;
  if (!q.where.every((c) => conditionHolds(c, t.values))) return false;
  if (q.from !== undefined || q.to !== undefined) {
    const ms = Date.parse(h.created_at);
    if (
      Number.isNaN(ms) ||
      (q.from !== undefined && ms < Date.parse(q.from)) ||
      (q.to !== undefined && ms >= Date.parse(q.to))
    )
      return false;
  }
  if (q.words.length) {
    const words = new Set(wordsOf(`${h.message} ${h.reply}`));
    if (!q.words.every((w) => words.has(w))) return false;
  }
  return true;
}

/** Newest first: by time, then by position in the thread. */
export function newestFirst(a: FetchedTurn, b: FetchedTurn): number {
  const ta = a.hit.created_at;
  const tb = b.hit.created_at;
  if (ta !== tb) return ta < tb ? 1 : -1;
  return b.hit.turn - a.hit.turn;
}

/** Counts over matching turns, in the shape of the service's (the list is complete). */
export function fetchedFacets(matched: readonly FetchedTurn[]): TurnFacetsIn {
  const count = (values: Iterable<string>) => {
    const counts = new Map<string, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts]
      .map(([value, n]) => ({ value, count: n }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  };
  const rules = count(matched.flatMap((t) => t.rules.map((r) => `${r.rule_id}\u0000${r.result}`))).map(
    ({ value, count: n }) => {
      const [rule_id = '', result = ''] = value.split('\u0000');
      return { rule_id, result, count: n };
    },
  );
  const tools = new Map<string, { considered: number; invoked: number }>();
  for (const t of matched)
    for (const x of t.tools) {
      const c = tools.get(x.tool) ?? { considered: 0, invoked: 0 };
      c.considered += 1;
      if (x.invoked) c.invoked += 1;
      tools.set(x.tool, c);
    }
  const dated = matched.filter((t) => t.hit.created_at);
  const days = count(dated.map((t) => t.hit.created_at.slice(0, 10)))
    .map(({ value, count: n }) => ({ day: value, count: n }))
    .sort((a, b) => (a.day < b.day ? -1 : 1));
  const oldest = dated.reduce<string | null>(
    (min, t) => (min === null || t.hit.created_at < min ? t.hit.created_at : min),
    null,
  );
  return {
    total: matched.length,
    complete: true,
    since: oldest,
    decisions: count(matched.map((t) => t.hit.decision)),
    intents: count(matched.map((t) => t.hit.intent)),
    rules,
    tools: [...tools]
      .map(([tool, c]) => ({ tool, ...c }))
      .sort((a, b) => b.considered - a.considered || a.tool.localeCompare(b.tool)),
    days,
  };
}
