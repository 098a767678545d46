/**
 * A search over the turn index (`GET /reference/v1/turns` and `/turns/facets`): the filters a
 * request names, read from its query, and the SQL `WHERE` they make, for SQLite and PostgreSQL.
 * Within a field the values are alternatives (OR); across fields every one must hold (AND).
 * Pure: no database here. Every list is capped, every value bound as a parameter, and the text
 * query is reduced to plain words, so no request can make the database do unbounded parsing.
 */

export interface RuleFilter {
  ruleId: string;
  /** Only turns where the rule had this result (`allowed`, `blocked`, …); any result when absent. */
  result?: string;
}
export interface ToolFilter {
  tool: string;
  /** Only turns that invoked the tool; else considering it is enough. */
  invoked: boolean;
}
export type ParamFilter =
  | { code: string; op: 'present' }
  | { code: string; op: '='; value: string }
  | { code: string; op: '>' | '<'; number: number }
  | { code: string; op: '>' | '<'; date: string };

export interface TurnQuery {
  agents: string[];
  rules: RuleFilter[];
  tools: ToolFilter[];
  decisions: string[];
  intents: string[];
  params: ParamFilter[];
  versions: string[];
  bundles: string[];
  tasks: string[];
  users: string[];
  /** Words that must all appear in the message or the reply. */
  words: string[];
  /** Inclusive lower bound on the turn's time (ISO-8601). */
  from?: string;
  /** Exclusive upper bound on the turn's time (ISO-8601). */
  to?: string;
}

/** A query value that cannot be read; `field` is the query parameter. */
export class TurnQueryError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'TurnQueryError';
  }
}

/** At most this many values per field, and this many words in `q`. */
export const MAX_VALUES_PER_FIELD = 50;
export const MAX_WORDS = 16;
const MAX_VALUE_LENGTH = 200;

export const FILTER_FIELDS = [
  'agent',
  'rule',
  'tool',
  'decision',
  'intent',
  'param',
  'version',
  'bundle',
  'task',
  'user',
  'q',
  'from',
  'to',
] as const;

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** The values of a field: repeated parameters, each also split at commas (ids hold no commas). */
function listOf(all: Record<string, string[]>, field: string, split = true): string[] {
  const out: string[] = [];
  for (const raw of all[field] ?? []) {
    for (const part of split ? raw.split(',') : [raw]) {
      const v = part.trim();
      if (!v) continue;
      if (v.length > MAX_VALUE_LENGTH)
        throw new TurnQueryError(field, `${field}: a value is longer than ${MAX_VALUE_LENGTH} characters`);
      out.push(v);
    }
  }
  if (out.length > MAX_VALUES_PER_FIELD)
    throw new TurnQueryError(field, `${field}: at most ${MAX_VALUES_PER_FIELD} values (got ${out.length})`);
  return out;
}

function paramFilter(raw: string): ParamFilter {
  const at = raw.search(/[=<>]/);
  if (at === -1) return { code: raw, op: 'present' };
  const code = raw.slice(0, at).trim();
  const op = raw[at] as '=' | '<' | '>';
  const operand = raw.slice(at + 1).trim();
  if (!code) throw new TurnQueryError('param', `param "${raw}": name a parameter before ${op}`);
  if (op === '=') return { code, op, value: operand };
  if (NUMBER.test(operand)) return { code, op, number: Number(operand) };
  if (DATE.test(operand) && !Number.isNaN(Date.parse(operand))) return { code, op, date: operand };
  throw new TurnQueryError(
    'param',
    `param "${raw}": ${op} compares with a number (${code}${op}500) or a date (${code}${op}2025-03-01)`,
  );
}

/** A time bound: an ISO date or date-time. A date alone as `to` includes that whole day. */
function timeBound(all: Record<string, string[]>, field: 'from' | 'to'): string | undefined {
  const values = listOf(all, field, false);
  if (values.length === 0) return undefined;
  if (values.length > 1) throw new TurnQueryError(field, `${field}: give it once`);
  const v = values[0]!;
  const ms = DATE.test(v) ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v) : Number.NaN;
  if (Number.isNaN(ms))
    throw new TurnQueryError(
      field,
      `${field}: "${v}" is not a date (2025-03-01) or a date-time (2025-03-01T12:00:00Z)`,
    );
  const dayAfter = field === 'to' && v.length === 10 ? 24 * 3600 * 1000 : 0;
  const d = new Date(ms + dayAfter);
  if (d.getUTCFullYear() > 9999 || d.getUTCFullYear() < 0)
    throw new TurnQueryError(field, `${field}: "${v}" is out of range`);
  return d.toISOString();
}

/** Letters and digits runs of the text query, at most MAX_WORDS of them. */
export function queryWords(q: string): string[] {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length > MAX_WORDS) throw new TurnQueryError('q', `q: at most ${MAX_WORDS} words`);
  return words.map((w) => w.slice(0, 64));
}

/** Reads a search from a request's query parameters (each field to its values, repeated or not). */
export function parseTurnQuery(all: Record<string, string[]>): TurnQuery {
  const rules = listOf(all, 'rule').map((r): RuleFilter => {
    const colon = r.indexOf(':');
    if (colon === -1) return { ruleId: r };
    const ruleId = r.slice(0, colon);
    const result = r.slice(colon + 1);
    if (!ruleId || !result) throw new TurnQueryError('rule', `rule "${r}": write RULE_ID or RULE_ID:result`);
    return { ruleId, result };
  });
  const tools = listOf(all, 'tool').map((t): ToolFilter => {
    if (t.endsWith(':invoked')) return { tool: t.slice(0, -':invoked'.length), invoked: true };
    if (t.includes(':')) throw new TurnQueryError('tool', `tool "${t}": write TOOL or TOOL:invoked`);
    return { tool: t, invoked: false };
  });
  const q = listOf(all, 'q', false).join(' ');
  return {
    agents: listOf(all, 'agent'),
    rules,
    tools,
    decisions: listOf(all, 'decision'),
    intents: listOf(all, 'intent'),
    params: listOf(all, 'param', false).map(paramFilter),
    versions: listOf(all, 'version'),
    bundles: listOf(all, 'bundle'),
    tasks: listOf(all, 'task'),
    users: listOf(all, 'user'),
    words: queryWords(q),
    ...optional('from', timeBound(all, 'from')),
    ...optional('to', timeBound(all, 'to')),
  };
}

const optional = <K extends string, V>(key: K, v: V | undefined) =>
  (v === undefined ? {} : { [key]: v }) as Partial<Record<K, V>>;

export type Dialect = 'sqlite' | 'postgres';

/** A piece of SQL with `?` placeholders and its arguments in order. */
export interface Where {
  sql: string;
  args: unknown[];
}

/** Candidate turns a search reads at most per request, newest first, from its driving filter. */
export const SEARCH_SCAN = 20_000;
/** Candidate turns the facets read at most, and matching turns they count at most. */
export const FACET_SCAN = 200_000;
export const FACET_TURNS = 20_000;

/**
 * How a search runs: `candidates` answers turn ids (`id`) newest first below the cursor from the
 * most telling filter (a rule, a tool, the words, a value, a decision, an intent, an agent, in
 * that order, when it names one alternative; else every turn), and `filter` holds every other
 * condition over `turn_index AS ti`, each a probe of one turn. A request reads at most a window
 * of candidates, so its work is bounded whatever the store's size; a window that ends before the
 * page is full says where the next request goes on.
 */
export interface SearchPlan {
  candidates: Where;
  filter: Where;
}

const TRUE = { sql: '1 = 1', args: [] };

export function planSearch(
  q: TurnQuery,
  allowedAgents: readonly string[] | null,
  dialect: Dialect,
  before: number | null,
): SearchPlan {
  const below = (column: string) =>
    before === null ? { sql: '', args: [] } : { sql: ` AND ${column} < ?`, args: [before] };
  const conditions: { field: string; where: Where }[] = [];
  const inList = (field: string, column: string, values: readonly unknown[]) => {
    if (values.length)
      conditions.push({
        field,
        where: { sql: `${column} IN (${values.map(() => '?').join(', ')})`, args: [...values] },
      });
  };
  if (allowedAgents) {
    if (allowedAgents.length === 0) conditions.push({ field: 'key', where: { sql: '1 = 0', args: [] } });
    else inList('key', 'ti.agent_id', allowedAgents);
  }
  inList('agent', 'ti.agent_id', q.agents);
  inList('decision', 'ti.decision', q.decisions);
  inList('intent', 'ti.intent', q.intents);
  inList('version', 'ti.version_id', q.versions);
  inList('bundle', 'ti.bundle_hash', q.bundles);
  inList('task', 'ti.task_id', q.tasks);
  inList('user', 'ti.user_id', q.users);
  if (q.from !== undefined)
    conditions.push({ field: 'from', where: { sql: 'ti.created_at >= ?', args: [q.from] } });
  if (q.to !== undefined) conditions.push({ field: 'to', where: { sql: 'ti.created_at < ?', args: [q.to] } });
  const rules = alternatives(q.rules, (r) =>
    r.result === undefined
      ? { sql: 'rule_id = ?', args: [r.ruleId] }
      : { sql: '(rule_id = ? AND result = ?)', args: [r.ruleId, r.result] },
  );
  const invoked = dialect === 'sqlite' ? '1' : 'true';
  const tools = alternatives(q.tools, (t) =>
    t.invoked
      ? { sql: `(tool = ? AND invoked = ${invoked})`, args: [t.tool] }
      : { sql: 'tool = ?', args: [t.tool] },
  );
  const params = alternatives(q.params, paramCondition);
  if (rules) conditions.push({ field: 'rule', where: probe('turn_index_rules', rules) });
  if (tools) conditions.push({ field: 'tool', where: probe('turn_index_tools', tools) });
  if (params) conditions.push({ field: 'param', where: probe('turn_index_values', params) });
  const words = q.words.length ? wordsCondition(q.words, dialect) : null;
  if (words) conditions.push({ field: 'q', where: words.probe });

  // The driving filter: the first that names one alternative and has an index in id order.
  let driver: { field: string; candidates: Where } | null = null;
  if (q.rules.length === 1 && q.rules[0]!.result !== undefined && rules)
    driver = {
      field: 'rule',
      candidates: source('turn', `turn_index_rules WHERE ${rules.sql}`, rules.args, below('turn')),
    };
  else if (q.tools.length === 1 && tools)
    driver = {
      field: 'tool',
      candidates: source('turn', `turn_index_tools WHERE ${tools.sql}`, tools.args, below('turn')),
    };
  else if (words)
    driver = { field: 'q', candidates: words.source(below(dialect === 'sqlite' ? 'rowid' : 'id')) };
  else if (q.params.length === 1 && params)
    driver = {
      field: 'param',
      candidates: source('turn', `turn_index_values WHERE ${params.sql}`, params.args, below('turn')),
    };
  else
    for (const [field, column, values] of [
      ['decision', 'decision', q.decisions],
      ['intent', 'intent', q.intents],
      ['agent', 'agent_id', q.agents],
    ] as const)
      if (!driver && values.length === 1)
        driver = {
          field,
          candidates: source('id', `turn_index WHERE ${column} = ?`, [values[0]], below('id')),
        };
  const candidates = driver?.candidates ?? source('id', 'turn_index WHERE 1 = 1', [], below('id'));
  const rest = conditions.filter((c) => c.field !== driver?.field).map((c) => c.where);
  return {
    candidates,
    filter: rest.length
      ? { sql: rest.map((w) => w.sql).join(' AND '), args: rest.flatMap((w) => w.args) }
      : TRUE,
  };
}

function alternatives<T>(items: readonly T[], each: (item: T) => Where): Where | null {
  if (items.length === 0) return null;
  const parts = items.map(each);
  return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, args: parts.flatMap((p) => p.args) };
}

function paramCondition(p: ParamFilter): Where {
  if (p.op === 'present') return { sql: 'code = ?', args: [p.code] };
  if (p.op === '=') return { sql: '(code = ? AND value_text = ?)', args: [p.code, p.value] };
  if ('number' in p) return { sql: `(code = ? AND value_num ${p.op} ?)`, args: [p.code, p.number] };
  return { sql: `(code = ? AND value_date ${p.op} ?)`, args: [p.code, p.date] };
}

/** One turn's rows of a side table hold one of the alternatives. */
const probe = (table: string, alts: Where): Where => ({
  sql: `EXISTS (SELECT 1 FROM ${table} WHERE ${table}.turn = ti.id AND ${alts.sql})`,
  args: alts.args,
});

/** Turn ids from `from`, newest first, below the cursor; the window's size is the last argument. */
const source = (column: string, from: string, args: unknown[], below: Where): Where => ({
  sql: `SELECT ${column} AS id FROM ${from}${below.sql} ORDER BY ${column} DESC LIMIT ?`,
  args: [...args, ...below.args],
});

/** Every word in the message or the reply: FTS5 on SQLite (each word quoted), tsvector on PostgreSQL. */
function wordsCondition(
  words: readonly string[],
  dialect: Dialect,
): { probe: Where; source: (below: Where) => Where } {
  if (dialect === 'sqlite') {
    const match = words.map((w) => `"${w}"`).join(' ');
    return {
      probe: {
        sql: 'EXISTS (SELECT 1 FROM turn_index_text WHERE turn_index_text MATCH ? AND rowid = ti.id)',
        args: [match],
      },
      source: (below) => source('rowid', 'turn_index_text WHERE turn_index_text MATCH ?', [match], below),
    };
  }
  const text = words.join(' ');
  return {
    probe: { sql: `ti.text_tsv @@ plainto_tsquery('english', ?)`, args: [text] },
    source: (below) =>
      source('id', `turn_index WHERE text_tsv @@ plainto_tsquery('english', ?)`, [text], below),
  };
}

/** `?` placeholders as PostgreSQL's `$1, $2, …`, numbered from `from`. */
export function numbered(sql: string, from = 1): string {
  let n = from;
  return sql.replace(/\?/g, () => `$${n++}`);
}

/** One turn found, as the index holds it, with the start of its message and reply. */
export interface TurnHit {
  /** The index's order key: newer turns have larger ones. */
  id: number;
  taskId: string;
  seq: number;
  interactionId: string;
  agentId: string;
  versionId: string;
  bundleHash: string | null;
  userId: string;
  createdAt: string;
  intent: string;
  decision: string;
  decidingRule: string | null;
  message: string;
  reply: string;
}

/** A page of hits, and where the next page starts (null when there is none). */
export interface TurnHits {
  hits: TurnHit[];
  /** The order key to search below for the next page; null when every match was returned. */
  next: number | null;
}

export interface FacetCount {
  value: string;
  count: number;
}
export interface TurnFacetCounts {
  /** Matching turns counted: all of them when `complete`, else the newest ones. */
  total: number;
  complete: boolean;
  /** The oldest counted turn's time (null when none). */
  since: string | null;
  decisions: FacetCount[];
  intents: FacetCount[];
  rules: { rule_id: string; result: string; count: number }[];
  tools: { tool: string; considered: number; invoked: number }[];
  /** Counted turns per day (UTC), oldest first. */
  days: { day: string; count: number }[];
}

/** Characters of the message and the reply a hit carries (the turn itself has the whole text). */
export const HIT_TEXT = 300;
/** At most this many rows in each facet list (rules, tools, intents: the most frequent first). */
export const MAX_FACET_ROWS = 200;

const HIT_COLUMNS = `ti.id, ti.task_id, ti.seq, ti.interaction_id, ti.agent_id, ti.version_id, ti.bundle_hash,
  ti.user_id, ti.created_at, ti.intent, ti.decision, ti.deciding_rule,
  substr(t.user_text, 1, ${HIT_TEXT}) AS message, substr(t.reply_text, 1, ${HIT_TEXT}) AS reply`;

/** The matching turns among a window of `window` candidates, newest first, at most `limit`. */
export function hitsSql(plan: SearchPlan, window: number, limit: number): Where {
  return {
    sql: `SELECT ${HIT_COLUMNS} FROM (${plan.candidates.sql}) AS c
      JOIN turn_index AS ti ON ti.id = c.id
      JOIN turns AS t ON t.task_id = ti.task_id AND t.seq = ti.seq
      WHERE ${plan.filter.sql} ORDER BY ti.id DESC LIMIT ?`,
    args: [...plan.candidates.args, window, ...plan.filter.args, limit],
  };
}

/** How many candidates a window of `window` holds, and the oldest of them. */
export function windowSql(plan: SearchPlan, window: number): Where {
  return {
    sql: `SELECT COUNT(*) AS n, MIN(c.id) AS oldest FROM (${plan.candidates.sql}) AS c`,
    args: [...plan.candidates.args, window],
  };
}

/** The newest matching turns the facets count (id, decision, intent, day, time). */
export function matchedSql(plan: SearchPlan): Where {
  return {
    sql: `SELECT ti.id, ti.decision, ti.intent, ti.day, ti.created_at FROM (${plan.candidates.sql}) AS c
      JOIN turn_index AS ti ON ti.id = c.id WHERE ${plan.filter.sql} ORDER BY ti.id DESC LIMIT ?`,
    args: [...plan.candidates.args, FACET_SCAN, ...plan.filter.args, FACET_TURNS],
  };
}

/** Rule and tool counts over a list of turn ids (a JSON array on SQLite, an array on PostgreSQL). */
export function sideFacetSqls(dialect: Dialect): { rules: string; tools: string } {
  const ids = dialect === 'sqlite' ? 'IN (SELECT value FROM json_each(?))' : '= ANY(?::bigint[])';
  return {
    rules: `SELECT rule_id, result, COUNT(*) AS count FROM turn_index_rules WHERE turn ${ids}
      GROUP BY rule_id, result ORDER BY count DESC, rule_id, result LIMIT ${MAX_FACET_ROWS}`,
    tools: `SELECT tool, COUNT(*) AS considered, SUM(CASE WHEN invoked THEN 1 ELSE 0 END) AS invoked
      FROM turn_index_tools WHERE turn ${ids} GROUP BY tool ORDER BY considered DESC, tool LIMIT ${MAX_FACET_ROWS}`,
  };
}

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Counts of values, the most frequent first (ties by value), at most MAX_FACET_ROWS. */
function countsOf(values: Iterable<string>): FacetCount[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, MAX_FACET_ROWS);
}

/** The facets from the matched rows, the side counts, and whether every match was counted. */
export function facetCounts(
  matched: Row[],
  side: { rules: Row[]; tools: Row[] },
  complete: boolean,
): TurnFacetCounts {
  const days = countsOf(matched.map((r) => str(r.day)))
    .map(({ value, count }) => ({ day: value, count }))
    .sort((a, b) => (a.day < b.day ? -1 : 1));
  return {
    total: matched.length,
    complete,
    since: matched.length ? str(matched[matched.length - 1]!.created_at) : null,
    decisions: countsOf(matched.map((r) => str(r.decision))),
    intents: countsOf(matched.map((r) => str(r.intent))),
    rules: side.rules.map((r) => ({ rule_id: str(r.rule_id), result: str(r.result), count: num(r.count) })),
    tools: side.tools.map((r) => ({
      tool: str(r.tool),
      considered: num(r.considered),
      invoked: num(r.invoked),
    })),
    days,
  };
}

/** A hit from its row. */
export function hitOf(r: Row): TurnHit {
  return {
    id: num(r.id),
    taskId: str(r.task_id),
    seq: num(r.seq),
    interactionId: str(r.interaction_id),
    agentId: str(r.agent_id),
    versionId: str(r.version_id),
    bundleHash: r.bundle_hash === null || r.bundle_hash === undefined ? null : str(r.bundle_hash),
    userId: str(r.user_id),
    createdAt: str(r.created_at),
    intent: str(r.intent),
    decision: str(r.decision),
    decidingRule: r.deciding_rule === null || r.deciding_rule === undefined ? null : str(r.deciding_rule),
    message: str(r.message),
    reply: str(r.reply),
  };
}

/**
 * Runs a search with a store's `all` (rows of a statement): a page of `limit` hits and where the
 * next page starts. Shared by both stores.
 */
export async function runSearch(
  all: (w: Where) => Promise<Row[]>,
  plan: SearchPlan,
  limit: number,
): Promise<TurnHits> {
  const rows = await all(hitsSql(plan, SEARCH_SCAN, limit + 1));
  const hits = rows.slice(0, limit).map(hitOf);
  if (rows.length > limit) return { hits, next: hits[hits.length - 1]!.id };
  // A short page: the window held every candidate left, or the next request goes on below it.
  const window = (await all(windowSql(plan, SEARCH_SCAN)))[0];
  return { hits, next: num(window?.n) < SEARCH_SCAN ? null : num(window?.oldest) };
}

/** Runs the facets with a store's `all`; `ids` shapes the matched ids as the dialect binds a list. */
export async function runFacets(
  all: (w: Where) => Promise<Row[]>,
  plan: SearchPlan,
  dialect: Dialect,
): Promise<TurnFacetCounts> {
  const matched = await all(matchedSql(plan));
  const ids = matched.map((r) => num(r.id));
  const bound = dialect === 'sqlite' ? JSON.stringify(ids) : ids;
  const side = sideFacetSqls(dialect);
  const [rules, tools] = ids.length
    ? [await all({ sql: side.rules, args: [bound] }), await all({ sql: side.tools, args: [bound] })]
    : [[], []];
  let complete = matched.length < FACET_TURNS;
  if (complete) complete = num((await all(windowSql(plan, FACET_SCAN)))[0]?.n) < FACET_SCAN;
  return facetCounts(matched, { rules, tools }, complete);
}
