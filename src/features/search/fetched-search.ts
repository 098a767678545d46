/**
 * The search over the turns this browser has fetched, for a service that offers no turn search
 * (a deployed service): the same filter language as the reference service's (`find.ts`), read
 * with the same rules (a bad value is said, never ignored), matched here turn by turn, with the
 * same counts. Within a field the values are alternatives; across fields all must hold. Pure: no
 * React, no I/O; linear in the turns given, which the caller bounds.
 */
import type { TurnFacetsIn, TurnHitIn } from '../../api/turn-search';
import type { TolerantTrace } from '../../contract/trace';
import { decisionCause } from '../../lib/decision-cause';

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

type ParamTest =
  | { code: string; op: 'present' }
  | { code: string; op: '='; value: string }
  | { code: string; op: '>' | '<'; number: number }
  | { code: string; op: '>' | '<'; date: string };

/** A search read from its query string. */
export interface FetchedQuery {
  lists: Record<'agent' | 'decision' | 'intent' | 'version' | 'bundle' | 'task' | 'user', string[]>;
  rules: { ruleId: string; result?: string }[];
  tools: { tool: string; invoked: boolean }[];
  params: ParamTest[];
  words: string[];
  from?: number;
  to?: number;
}

const MAX_VALUES_PER_FIELD = 50;
const MAX_WORDS = 16;
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;
const NUMBER = /^-?\d+(\.\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T|$)/;

/** Letter and digit runs, lowercased. */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Reads a search; throws an Error naming the field and the problem when a value cannot be read. */
export function readFetchedQuery(find: string): FetchedQuery {
  const params = new URLSearchParams(find);
  const list = (field: string, split = true): string[] => {
    const out = params
      .getAll(field)
      .flatMap((raw) => (split ? raw.split(',') : [raw]))
      .map((v) => v.trim())
      .filter(Boolean);
    if (out.length > MAX_VALUES_PER_FIELD)
      throw new Error(`${field}: at most ${MAX_VALUES_PER_FIELD} values (got ${out.length})`);
    return out;
  };
  const rules = list('rule').map((r) => {
    const colon = r.indexOf(':');
    if (colon === -1) return { ruleId: r };
    const ruleId = r.slice(0, colon);
    const result = r.slice(colon + 1);
    if (!ruleId || !result) throw new Error(`rule "${r}": write RULE_ID or RULE_ID:result`);
    return { ruleId, result };
  });
  const tools = list('tool').map((t) => {
    if (t.endsWith(':invoked')) return { tool: t.slice(0, -':invoked'.length), invoked: true };
    if (t.includes(':')) throw new Error(`tool "${t}": write TOOL or TOOL:invoked`);
    return { tool: t, invoked: false };
  });
  const words = wordsOf(list('q', false).join(' '));
  if (words.length > MAX_WORDS) throw new Error(`q: at most ${MAX_WORDS} words`);
  const bound = (field: 'from' | 'to'): number | undefined => {
    const values = list(field, false);
    if (values.length === 0) return undefined;
    if (values.length > 1) throw new Error(`${field}: give it once`);
    const v = values[0]!;
    const ms = DATE.test(v) ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v) : Number.NaN;
    if (Number.isNaN(ms))
      throw new Error(`${field}: "${v}" is not a date (2025-03-01) or a date-time (2025-03-01T12:00:00Z)`);
    // A date alone as `to` includes that whole day.
    return ms + (field === 'to' && v.length === 10 ? 24 * 3600 * 1000 : 0);
  };
  const from = bound('from');
  const to = bound('to');
  return {
    lists: {
      agent: list('agent'),
      decision: list('decision'),
      intent: list('intent'),
      version: list('version'),
      bundle: list('bundle'),
      task: list('task'),
      user: list('user'),
    },
    rules,
    tools,
    params: list('param', false).map(paramTest),
    words,
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
}

function paramTest(raw: string): ParamTest {
  const at = raw.search(/[=<>]/);
  if (at === -1) return { code: raw, op: 'present' };
  const code = raw.slice(0, at).trim();
  const op = raw[at] as '=' | '<' | '>';
  const operand = raw.slice(at + 1).trim();
  if (!code) throw new Error(`param "${raw}": name a parameter before ${op}`);
  if (op === '=') return { code, op, value: operand };
  if (NUMBER.test(operand)) return { code, op, number: Number(operand) };
  if (DATE.test(operand) && !Number.isNaN(Date.parse(operand))) return { code, op, date: operand };
  throw new Error(
    `param "${raw}": ${op} compares with a number (${code}${op}500) or a date (${code}${op}2025-03-01)`,
  );
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

function paramHolds(p: ParamTest, values: ReadonlyMap<string, unknown>): boolean {
  const forms = values.has(p.code) ? valueForms(values.get(p.code)) : null;
  if (!forms) return false;
  if (p.op === 'present') return true;
  if (p.op === '=') return forms.text === p.value;
  if ('number' in p)
    return forms.num !== null && (p.op === '>' ? forms.num > p.number : forms.num < p.number);
  return forms.date !== null && (p.op === '>' ? forms.date > p.date : forms.date < p.date);
}

const oneOf = (values: readonly string[], v: string) => values.length === 0 || values.includes(v);

export function matchesFetched(q: FetchedQuery, t: FetchedTurn): boolean {
  const h = t.hit;
  if (
    !oneOf(q.lists.agent, h.agent_id) ||
    !oneOf(q.lists.decision, h.decision) ||
    !oneOf(q.lists.intent, h.intent) ||
    !oneOf(q.lists.version, h.version_id) ||
    !oneOf(q.lists.bundle, h.bundle_hash ?? '') ||
    !oneOf(q.lists.task, h.task_id) ||
    !oneOf(q.lists.user, h.user_id)
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
  if (q.from !== undefined || q.to !== undefined) {
    const ms = Date.parse(h.created_at);
    if (Number.isNaN(ms) || (q.from !== undefined && ms < q.from) || (q.to !== undefined && ms >= q.to))
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
