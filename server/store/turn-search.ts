/**
 * A search over the turn index (`GET /reference/v1/turns` and `/turns/facets`): the SQL `WHERE`
 * the filters of a request make, for SQLite and PostgreSQL (the filters are read by
 * `src/contract/turn-query.ts`, shared with the SPA's search over fetched turns).
 * Within a field the values are alternatives (OR); across fields every one must hold (AND).
 * Pure: no database here. Every list is capped, every value bound as a parameter, and the text
 * query is reduced to plain words, so no request can make the database do unbounded parsing.
 */
import type { TurnIndexEntry } from './turn-index';

export {
  listOf,
  MAX_VALUES_PER_FIELD,
  MAX_WORDS,
  parseTurnQuery,
  queryWords,
  searchableText,
  TurnQueryError,
  type ParamFilter,
  type RuleFilter,
  type ToolFilter,
  type TurnQuery,
} from '../../src/contract/turn-query';
import type { TurnQuery } from '../../src/contract/turn-query';

export type Dialect = 'sqlite' | 'postgres';

/** A piece of SQL with `?` placeholders and its arguments in order. */
export interface Where {
  sql: string;
  args: unknown[];
}

/** Candidate turns a search reads at most per request, newest first, from its driving filter. */
export const SEARCH_SCAN = 20_000;
/** Candidate turns the facets read at most, and matching turns they count at most. */
export const FACET_SCAN = 100_000;
export const FACET_TURNS = 10_000;

/**
 * How a search runs. `driver` walks turn ids newest first from the most telling filter (a rule
 * with its result, a tool, the words, a value, a decision, an intent, an agent, when it names one
 * alternative; else every turn): `from` joins it to `turn_index AS ti`, `where` is its own
 * condition and `id` its turn-id column. `filter` holds every other condition, each a probe of
 * one turn. A request first finds the window of its next `SEARCH_SCAN` candidates (an index-only
 * read), then reads the matches within it, stopping at the page's end: its work is bounded
 * whatever the store's size, and a window that ends before the page is full says where the next
 * request goes on.
 */
export interface SearchPlan {
  driver: { table: string; id: string; where: Where };
  filter: Where;
  before: number | null;
}

const TRUE = { sql: '1 = 1', args: [] };

export function planSearch(
  q: TurnQuery,
  allowedAgents: readonly string[] | null,
  dialect: Dialect,
  before: number | null,
): SearchPlan {
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
  const side = (table: string) => (sql: string, args: unknown[]) => ({
    sql: sql.replaceAll('@', `${table}.`),
    args,
  });
  const rule = side('turn_index_rules');
  const rules = alternatives(q.rules, (r) =>
    r.result === undefined
      ? rule('@rule_id = ?', [r.ruleId])
      : rule('(@rule_id = ? AND @result = ?)', [r.ruleId, r.result]),
  );
  const tool = side('turn_index_tools');
  const invoked = dialect === 'sqlite' ? '1' : 'true';
  const tools = alternatives(q.tools, (t) =>
    t.invoked ? tool(`(@tool = ? AND @invoked = ${invoked})`, [t.tool]) : tool('@tool = ?', [t.tool]),
  );
  const value = side('turn_index_values');
  // `+` keeps SQLite on the (code, turn) key, which probes one turn, rather than a value range.
  const plus = dialect === 'sqlite' ? '+' : '';
  const params = alternatives(q.params, (p) => {
    if (p.op === 'present') return value('@code = ?', [p.code]);
    if (p.op === '=') return value(`(@code = ? AND ${plus}@value_text = ?)`, [p.code, p.value]);
    if ('number' in p) return value(`(@code = ? AND ${plus}@value_num ${p.op} ?)`, [p.code, p.number]);
    return value(`(@code = ? AND ${plus}@value_date ${p.op} ?)`, [p.code, p.date]);
  });
  if (rules) conditions.push({ field: 'rule', where: probe('turn_index_rules', rules) });
  if (tools) conditions.push({ field: 'tool', where: probe('turn_index_tools', tools) });
  if (params) conditions.push({ field: 'param', where: probe('turn_index_values', params) });
  const words = q.words.length ? wordsCondition(q.words, dialect) : null;
  if (words) conditions.push({ field: 'q', where: words.probe });

  // The driving filter: the first that names one alternative and is read in turn order.
  const drive = (field: string, table: string, id: string, where: Where) => ({
    field,
    driver: { table, id, where },
  });
  let chosen: ReturnType<typeof drive> | null = null;
  if (q.rules.length === 1 && q.rules[0]!.result !== undefined && rules)
    chosen = drive('rule', 'turn_index_rules', 'turn_index_rules.turn', rules);
  else if (q.tools.length === 1 && tools)
    chosen = drive('tool', 'turn_index_tools', 'turn_index_tools.turn', tools);
  else if (words) chosen = drive('q', words.table, words.id, words.match);
  else if (q.params.length === 1 && params)
    // The parameter's rows by code alone (an index range, so a window holds at most SEARCH_SCAN
    // of them); a comparison with a value stays a probe in `filter`: driving by it would read
    // every row of the code to find a window's worth of rare values.
    chosen = {
      field: q.params[0]!.op === 'present' ? 'param' : 'param driver',
      driver: {
        table: 'turn_index_values',
        id: 'turn_index_values.turn',
        where: value('@code = ?', [q.params[0]!.code]),
      },
    };
  else
    for (const [field, column, values] of [
      ['decision', 'decision', q.decisions],
      ['intent', 'intent', q.intents],
      ['agent', 'agent_id', q.agents],
    ] as const)
      if (!chosen && values.length === 1)
        chosen = drive(field, '', 'ti.id', { sql: `ti.${column} = ?`, args: [values[0]] });
  const driver = chosen?.driver ?? { table: '', id: 'ti.id', where: TRUE };
  const rest = conditions.filter((c) => c.field !== chosen?.field).map((c) => c.where);
  return {
    driver,
    filter: rest.length
      ? { sql: rest.map((w) => w.sql).join(' AND '), args: rest.flatMap((w) => w.args) }
      : TRUE,
    before,
  };
}

function alternatives<T>(items: readonly T[], each: (item: T) => Where): Where | null {
  if (items.length === 0) return null;
  const parts = items.map(each);
  return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, args: parts.flatMap((p) => p.args) };
}

/** One turn's rows of a side table hold one of the alternatives. */
const probe = (table: string, alts: Where): Where => ({
  sql: `EXISTS (SELECT 1 FROM ${table} WHERE ${table}.turn = ti.id AND ${alts.sql})`,
  args: alts.args,
});

/** Every word in the message or the reply: FTS5 on SQLite (each word quoted), tsvector on PostgreSQL. */
function wordsCondition(
  words: readonly string[],
  dialect: Dialect,
): { probe: Where; table: string; id: string; match: Where } {
  if (dialect === 'sqlite') {
    const match = words.map((w) => `"${w}"`).join(' ');
    return {
      probe: {
        sql: 'EXISTS (SELECT 1 FROM turn_index_text WHERE turn_index_text MATCH ? AND turn_index_text.rowid = ti.id)',
        args: [match],
      },
      table: 'turn_index_text',
      id: 'turn_index_text.rowid',
      match: { sql: 'turn_index_text MATCH ?', args: [match] },
    };
  }
  const test = { sql: `ti.text_tsv @@ plainto_tsquery('english', ?)`, args: [words.join(' ')] };
  return { probe: test, table: '', id: 'ti.id', match: test };
}

/** The driver's turn ids, newest first, below the plan's cursor and at or above `low` when given. */
function driven(plan: SearchPlan, columns: string, low: number | null, rest: Where, joins = ''): Where {
  const { table, id, where } = plan.driver;
  // A side table alone when nothing else is read (a window's ids), else joined to the turn's row.
  const alone = table && columns === `${id} AS id` && rest === TRUE;
  const join = alone
    ? table
    : (table ? `${table} JOIN turn_index AS ti ON ti.id = ${id}` : 'turn_index AS ti') + joins;
  const bounds: Where[] = [where];
  if (plan.before !== null) bounds.push({ sql: `${id} < ?`, args: [plan.before] });
  if (low !== null) bounds.push({ sql: `${id} >= ?`, args: [low] });
  bounds.push(rest);
  return {
    sql: `SELECT ${columns} FROM ${join} WHERE ${bounds.map((b) => b.sql).join(' AND ')} ORDER BY ${id} DESC`,
    args: bounds.flatMap((b) => b.args),
  };
}

/** How many candidates the next window holds (at most `window`), and the oldest of them. */
export function windowSql(plan: SearchPlan, window: number): Where {
  const ids = driven(plan, `${plan.driver.id} AS id`, null, TRUE);
  return {
    sql: `SELECT COUNT(*) AS n, MIN(w.id) AS oldest FROM (${ids.sql} LIMIT ?) AS w`,
    args: [...ids.args, window],
  };
}

/** `?` placeholders as PostgreSQL's `$1, $2, …`, numbered from `from`. */
export function numbered(sql: string, from = 1): string {
  let n = from;
  return sql.replace(/\?/g, () => `$${n++}`);
}

/**
 * One turn found: the index entry's own columns (its message and reply cut to their start) and
 * the order key (`id`: newer turns have larger ones).
 */
export type TurnHit = Omit<TurnIndexEntry, 'rules' | 'tools' | 'values'> & { id: number };

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

/** The matching turns at or above `low`, newest first, at most `limit`. */
export function hitsSql(plan: SearchPlan, low: number | null, limit: number): Where {
  const q = driven(
    plan,
    HIT_COLUMNS,
    low,
    plan.filter,
    ' JOIN turns AS t ON t.task_id = ti.task_id AND t.seq = ti.seq',
  );
  return { sql: `${q.sql} LIMIT ?`, args: [...q.args, limit] };
}

/** The newest matching turns the facets count (id, decision, intent, day, time), at or above `low`. */
export function matchedSql(plan: SearchPlan, low: number | null): Where {
  const q = driven(plan, 'ti.id, ti.decision, ti.intent, ti.day, ti.created_at', low, plan.filter);
  return { sql: `${q.sql} LIMIT ?`, args: [...q.args, FACET_TURNS] };
}

/**
 * Rule and tool counts over a list of turn ids (a JSON array on SQLite, an array on PostgreSQL),
 * given with their lowest and highest id first: the range keeps the read on the side table's
 * `(turn, …)` index, which PostgreSQL would otherwise trade for a scan of the whole table.
 */
export function sideFacetSqls(dialect: Dialect): { rules: string; tools: string } {
  const ids = `turn BETWEEN ? AND ? AND turn ${dialect === 'sqlite' ? 'IN (SELECT value FROM json_each(?))' : '= ANY(?::bigint[])'}`;
  return {
    rules: `SELECT rule_id, result, COUNT(*) AS count FROM turn_index_rules WHERE ${ids}
      GROUP BY rule_id, result ORDER BY count DESC, rule_id, result LIMIT ${MAX_FACET_ROWS}`,
    tools: `SELECT tool, COUNT(*) AS considered, SUM(CASE WHEN invoked THEN 1 ELSE 0 END) AS invoked
      FROM turn_index_tools WHERE ${ids} GROUP BY tool ORDER BY considered DESC, tool LIMIT ${MAX_FACET_ROWS}`,
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
 * The next window of at most `size` candidates: its oldest turn (null when it holds none), and
 * whether it holds every candidate left. Every read after it stays at or above `low`, so no plan
 * the database picks can read past the window, even when the window holds all that are left.
 */
async function nextWindow(
  all: (w: Where) => Promise<Row[]>,
  plan: SearchPlan,
  size: number,
): Promise<{ low: number | null; last: boolean }> {
  const w = (await all(windowSql(plan, size)))[0];
  const n = num(w?.n);
  return { low: n === 0 ? null : num(w?.oldest), last: n < size };
}

/**
 * Runs a search with a store's `all` (rows of a statement): a page of `limit` hits within the
 * next window of candidates, and where the next page starts. Shared by both stores.
 */
export async function runSearch(
  all: (w: Where) => Promise<Row[]>,
  plan: SearchPlan,
  limit: number,
): Promise<TurnHits> {
  const { low, last } = await nextWindow(all, plan, SEARCH_SCAN);
  if (low === null) return { hits: [], next: null };
  const rows = await all(hitsSql(plan, low, limit + 1));
  const hits = rows.slice(0, limit).map(hitOf);
  if (rows.length > limit) return { hits, next: hits[hits.length - 1]!.id };
  // A short page: the window held every candidate left, or the next request goes on below it.
  return { hits, next: last ? null : low };
}

/** Runs the facets with a store's `all`, over the newest matching turns of a window of FACET_SCAN. */
export async function runFacets(
  all: (w: Where) => Promise<Row[]>,
  plan: SearchPlan,
  dialect: Dialect,
): Promise<TurnFacetCounts> {
  const { low, last } = await nextWindow(all, plan, FACET_SCAN);
  const matched = low === null ? [] : await all(matchedSql(plan, low));
  const ids = matched.map((r) => num(r.id));
  const bound = dialect === 'sqlite' ? JSON.stringify(ids) : ids;
  const side = sideFacetSqls(dialect);
  const args = [
    ids.reduce((a, b) => Math.min(a, b), Infinity),
    ids.reduce((a, b) => Math.max(a, b), 0),
    bound,
  ];
  const [rules, tools] = ids.length
    ? [await all({ sql: side.rules, args }), await all({ sql: side.tools, args })]
    : [[], []];
  return facetCounts(matched, { rules, tools }, last && matched.length < FACET_TURNS);
}
