/**
 * A search over the turn index (`GET /reference/v1/turns` and `/turns/facets`): the SQL `WHERE`
 * the filters of a request make, for SQLite and PostgreSQL (the filters are read by
 * `src/contract/turn-query.ts`, shared with the SPA's search over fetched turns).
 * Within a field the values are alternatives (OR); across fields every one must hold (AND).
 * Pure: no database here. Every list is capped, every value bound as a parameter, and the text
 * query is reduced to plain words, so no request can make the database do unbounded parsing.
 */
import type { TurnIndexEntry } from '../../engine/turn-index-entry';
import { term, termNumber } from './turn-terms';
import { searchWords } from './turn-words';

export {
  listOf,
  parseTurnQuery,
  TurnQueryError,
  type Condition,
  type ParamFilter,
  type RuleFilter,
  type ToolFilter,
  type TurnQuery,
} from '../../src/contract/turn-query';
import type { Comparison, ParamFilter, TurnQuery } from '../../src/contract/turn-query';

export type Dialect = 'sqlite' | 'postgres';

/** A piece of SQL with `?` placeholders and its arguments in order. */
export interface Where {
  sql: string;
  args: unknown[];
}

/** Candidate turns a search reads at most per request, newest first, from its driving filter. */
const SEARCH_SCAN = 20_000;
/** Candidate turns the facets read at most, and matching turns they count at most. */
const FACET_SCAN = 100_000;
export const FACET_TURNS = 10_000;

/**
 * How a search runs. `driver` walks turn ids newest first from the most telling filter: the
 * turn's full-text row when the search names any term (a rule, a tool, a decision, an intent, a
 * parameter, its value, or the presence of a parameter it compares: `turn-terms.ts`) or words,
 * matched at once for every such field; else one agent's turns; else every turn. `table` joins
 * it to `turn_index AS ti`, `where` is its own condition and `id` its turn-id column. `filter`
 * holds every other condition, each a probe of one turn. A request first finds the window of its
 * next `SEARCH_SCAN` candidates (an index-only read), then reads the matches within it, stopping
 * at the page's end: its work is bounded whatever the store's size, and a window that ends before
 * the page is full says where the next request goes on.
 */
export interface SearchPlan {
  driver: { table: string; id: string; where: Where };
  filter: Where;
  before: number | null;
}

const TRUE = { sql: '1 = 1', args: [] };

/**
 * The terms a query asks for, one group per field: a turn must hold one term of every group. A
 * `param` alternative that compares (`code>n`, `code<n`) asks for its parameter's presence here,
 * which every turn it matches has; the comparison itself is then probed (`planSearch`).
 */
function termGroups(q: TurnQuery): string[][] {
  const groups: string[][] = [];
  const add = (terms: string[]) => {
    if (terms.length) groups.push(terms);
  };
  add(
    q.rules.map((r) =>
      r.result === undefined ? term('rule', r.ruleId) : term('rule-result', r.ruleId, r.result),
    ),
  );
  add(q.tools.map((t) => term(t.invoked ? 'tool-invoked' : 'tool', t.tool)));
  add(q.decisions.map((d) => term('decision', d)));
  add(q.intents.map((i) => term('intent', i)));
  add(q.params.map((p) => (p.op === '=' ? term('value', p.code, p.value) : term('param', p.code))));
  // Each `where` condition must hold: its term alone is a group, once (an absence is probed instead).
  const wanted = new Set(q.where.flatMap((c) => (c.op === 'absent' ? [] : [paramTerm(c)])));
  for (const t of wanted) add([t]);
  return groups;
}

/** The term a parameter filter implies: its value for `=`, else its parameter's presence. */
const paramTerm = (p: ParamFilter): string =>
  p.op === '=' ? term('value', p.code, p.value) : term('param', p.code);

const isComparison = (p: { op: string }): p is { op: Comparison } =>
  p.op === '<' || p.op === '>' || p.op === '<=' || p.op === '>=';

type Compared = ParamFilter & { op: Comparison };
const columnOf = (p: Compared) => ('number' in p ? 'numbers' : 'dates');
const operandOf = (p: Compared) => ('number' in p ? p.number : p.date);

/**
 * Comparisons of one parameter's value with numbers or dates (all of them must hold), probed in
 * the turn's row. On SQLite, the value is read from its JSON column by its path (`$."code"`, the
 * row's JSONB read without parsing text); a code the path cannot quote (one holding `"`) is looked
 * for among the column's keys instead, its comparisons sharing one read.
 */
function comparison(all: readonly [Compared, ...Compared[]], dialect: Dialect): Where {
  const [first] = all;
  const column = columnOf(first);
  if (dialect === 'sqlite' && !first.code.includes('"'))
    return {
      sql: all.map((p) => `(ti.${column} ->> ?) ${p.op} ?`).join(' AND '),
      args: all.flatMap((p) => [`$."${p.code}"`, operandOf(p)]),
    };
  if (dialect === 'sqlite')
    return {
      sql: `EXISTS (SELECT 1 FROM json_each(ti.${column}) AS v WHERE v.key = ?${all.map((p) => ` AND v.value ${p.op} ?`).join('')})`,
      args: [first.code, ...all.map(operandOf)],
    };
  const cast = column === 'numbers' ? 'float8' : 'text';
  const parts = all.map((p) => ({
    sql: `(ti.${column} ->> ?::text)::${cast} ${p.op} ?::${cast}`,
    args: [p.code, operandOf(p)],
  }));
  return { sql: parts.map((p) => p.sql).join(' AND '), args: parts.flatMap((p) => p.args) };
}

/** The `where` comparisons by parameter and column, each group probed at once. */
function comparedGroups(q: TurnQuery): [Compared, ...Compared[]][] {
  const groups = new Map<string, [Compared, ...Compared[]]>();
  for (const c of q.where) {
    if (!isComparison(c)) continue;
    const key = `${columnOf(c)}\u0000${c.code}`;
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()];
}

export function planSearch(
  q: TurnQuery,
  allowedAgents: readonly string[] | null,
  dialect: Dialect,
  before: number | null,
): SearchPlan {
  const conditions: Where[] = [];
  const inList = (column: string, values: readonly unknown[]) => {
    if (values.length)
      conditions.push({ sql: `${column} IN (${values.map(() => '?').join(', ')})`, args: [...values] });
  };
  if (allowedAgents) {
    if (allowedAgents.length === 0) conditions.push({ sql: '1 = 0', args: [] });
    else inList('ti.agent_id', allowedAgents);
  }
  const groups = termGroups(q);
  // The query's words folded as the stores index a turn's words (`turn-words.ts`).
  const words = q.words.flatMap(searchWords);
  const textDriven = groups.length > 0 || words.length > 0;
  if (q.words.length > 0 && words.length === 0) conditions.push({ sql: '1 = 0', args: [] });
  // One agent drives when nothing else does; else it is a condition like the others.
  const agentDriven = !textDriven && q.agents.length === 1;
  if (!agentDriven) inList('ti.agent_id', q.agents);
  inList('ti.version_id', q.versions);
  inList('ti.bundle_hash', q.bundles);
  inList('ti.task_id', q.tasks);
  inList('ti.user_id', q.users);
  if (q.from !== undefined) conditions.push({ sql: 'ti.created_at >= ?', args: [q.from] });
  if (q.to !== undefined) conditions.push({ sql: 'ti.created_at < ?', args: [q.to] });

  // A `param` field with a comparison: the full-text match holds its parameters' presence (or
  // values), and each alternative is probed in the turn's row: its comparison, or its term.
  if (q.params.some(isComparison)) {
    const parts = q.params.map((p): Where =>
      isComparison(p) ? comparison([p], dialect) : termProbe(paramTerm(p), dialect),
    );
    conditions.push({ sql: `(${parts.map((p) => p.sql).join(' OR ')})`, args: parts.flatMap((p) => p.args) });
  }
  // A `where` comparison is probed in the turn's row (the match holds its parameter's presence).
  for (const group of comparedGroups(q)) conditions.push(comparison(group, dialect));
  // An absence is the lack of the parameter's term: on SQLite, a NOT of the full-text match when it
  // drives (else the set of turns holding one, read once); on PostgreSQL, a probe of the row's terms.
  const absent = q.where.filter((c) => c.op === 'absent').map((c) => term('param', c.code));
  if (absent.length && dialect === 'postgres')
    conditions.push({ sql: 'NOT (ti.terms && ?::bigint[])', args: [absent.map(termNumber)] });
  else if (absent.length && !textDriven)
    conditions.push({
      sql: 'ti.id NOT IN (SELECT rowid FROM turn_index_text WHERE turn_index_text MATCH ?)',
      args: [ftsQuery([absent], [])],
    });

  let driver: SearchPlan['driver'] = { table: '', id: 'ti.id', where: TRUE };
  if (textDriven) driver = textMatch(groups, words, dialect, absent);
  else if (agentDriven)
    driver = { table: '', id: 'ti.id', where: { sql: 'ti.agent_id = ?', args: [q.agents[0]] } };
  return {
    driver,
    filter: conditions.length
      ? { sql: conditions.map((w) => w.sql).join(' AND '), args: conditions.flatMap((w) => w.args) }
      : TRUE,
    before,
  };
}

const quoted = (token: string) => `"${token}"`;

/**
 * An FTS5 query: every group's terms (one of each) in the `terms` column, and every word in the
 * texts; none of the `absent` terms.
 */
function ftsQuery(
  groups: readonly string[][],
  words: readonly string[],
  absent: readonly string[] = [],
): string {
  const parts = groups.map((g) => `{terms} : (${g.map(quoted).join(' OR ')})`);
  if (words.length) parts.push(`{message reply} : (${words.map((w) => `"${w}"`).join(' AND ')})`);
  const all = parts.join(' AND ');
  return absent.length ? `(${all}) NOT {terms} : (${absent.map(quoted).join(' OR ')})` : all;
}

/** The terms as conditions on PostgreSQL's `terms` array: one of each group. */
function pgTerms(groups: readonly string[][]): Where[] {
  return groups.map((g) =>
    g.length === 1
      ? { sql: 'ti.terms @> ?::bigint[]', args: [g.map(termNumber)] }
      : { sql: 'ti.terms && ?::bigint[]', args: [g.map(termNumber)] },
  );
}

/** The full-text condition of the terms and words: FTS5's MATCH, or the terms array and the tsvector. */
function textMatch(
  groups: readonly string[][],
  words: readonly string[],
  dialect: Dialect,
  absent: readonly string[],
): SearchPlan['driver'] {
  if (dialect === 'sqlite')
    return {
      table: 'turn_index_text',
      id: 'turn_index_text.rowid',
      where: { sql: 'turn_index_text MATCH ?', args: [ftsQuery(groups, words, absent)] },
    };
  const parts = pgTerms(groups);
  if (words.length)
    parts.push({ sql: `ti.text_tsv @@ plainto_tsquery('simple', ?)`, args: [words.join(' ')] });
  return {
    table: '',
    id: 'ti.id',
    where: { sql: parts.map((p) => p.sql).join(' AND '), args: parts.flatMap((p) => p.args) },
  };
}

/** A probe of one turn's term. */
function termProbe(token: string, dialect: Dialect): Where {
  if (dialect === 'sqlite')
    return {
      sql: 'EXISTS (SELECT 1 FROM turn_index_text WHERE turn_index_text MATCH ? AND turn_index_text.rowid = ti.id)',
      args: [ftsQuery([[token]], [])],
    };
  return pgTerms([[token]])[0]!;
}

/**
 * The driver's side table joined to the turn's row, the side table first: SQLite takes a CROSS
 * JOIN's order as given. With a plain JOIN, a page past the first (an id bounded on both sides)
 * and an agent made SQLite drive from the agent's index and run the full-text match once per
 * turn of the agent: 4 s and more for a page on a million turns, where the match alone takes
 * milliseconds.
 */
const drivenFrom = ({ table, id }: SearchPlan['driver']): string =>
  table ? `${table} CROSS JOIN turn_index AS ti ON ti.id = ${id}` : 'turn_index AS ti';

/** The driver's turn ids, newest first, below the plan's cursor and at or above `low` when given. */
function driven(plan: SearchPlan, columns: string, low: number | null, rest: Where, joins = ''): Where {
  const { table, id, where } = plan.driver;
  // A side table alone when nothing else is read (a window's ids), else joined to the turn's row.
  const alone = table && columns === `${id} AS id` && rest === TRUE;
  const join = alone ? table : drivenFrom(plan.driver) + joins;
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
function windowSql(plan: SearchPlan, window: number): Where {
  const ids = driven(plan, `${plan.driver.id} AS id`, null, TRUE);
  return {
    sql: `SELECT COUNT(*) AS n, MIN(w.id) AS oldest FROM (${ids.sql} LIMIT ?) AS w`,
    args: [...ids.args, window],
  };
}

/** How many turns match the plan, all of them (no window, no cursor). */
function countSql(plan: SearchPlan): Where {
  const { where } = plan.driver;
  return {
    sql: `SELECT COUNT(*) AS n FROM ${drivenFrom(plan.driver)} WHERE ${where.sql} AND ${plan.filter.sql}`,
    args: [...where.args, ...plan.filter.args],
  };
}

/** Runs a count with a store's `all`. */
export async function runCount(all: (w: Where) => Promise<Row[]>, plan: SearchPlan): Promise<number> {
  return num((await all(countSql(plan)))[0]?.n);
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
export type TurnHit = Omit<TurnIndexEntry, 'rules' | 'tools' | 'terms' | 'ranges'> & { id: number };

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
const HIT_TEXT = 300;
/** At most this many rows in each facet list (rules, tools, intents: the most frequent first). */
const MAX_FACET_ROWS = 200;

const HIT_COLUMNS = `ti.id, ti.task_id, ti.seq, ti.interaction_id, ti.agent_id, ti.version_id, ti.bundle_hash,
  ti.user_id, ti.created_at, ti.intent, ti.decision, ti.deciding_rule,
  substr(t.user_text, 1, ${HIT_TEXT}) AS message, substr(t.reply_text, 1, ${HIT_TEXT}) AS reply`;

/** The matching turns at or above `low`, newest first, at most `limit`. */
function hitsSql(plan: SearchPlan, low: number | null, limit: number): Where {
  const q = driven(
    plan,
    HIT_COLUMNS,
    low,
    plan.filter,
    ' JOIN turns AS t ON t.task_id = ti.task_id AND t.seq = ti.seq',
  );
  return { sql: `${q.sql} LIMIT ?`, args: [...q.args, limit] };
}

/** The newest matching turns the facets count (id, decision, intent, day, time, rules, tools), at or above `low`. */
function matchedSql(plan: SearchPlan, low: number | null): Where {
  const q = driven(
    plan,
    'ti.id, ti.decision, ti.intent, ti.day, ti.created_at, ti.rules, ti.tools',
    low,
    plan.filter,
  );
  return { sql: `${q.sql} LIMIT ?`, args: [...q.args, FACET_TURNS] };
}

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Counts of values, the most frequent first (ties by value), at most MAX_FACET_ROWS. */
function countsOf(values: Iterable<string>): FacetCount[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || byText(a.value, b.value))
    .slice(0, MAX_FACET_ROWS);
}

/** A row's JSON list column (`[]` when it cannot be read: the counts skip it, never fail). */
function listColumn(v: unknown): unknown[][] {
  try {
    const list: unknown = JSON.parse(str(v));
    return Array.isArray(list) ? list.filter((x): x is unknown[] => Array.isArray(x)) : [];
  } catch {
    return [];
  }
}

/**
 * The facets from the matched rows (with their `rules` and `tools` columns), and whether every
 * match was counted.
 */
function facetCounts(matched: Row[], complete: boolean): TurnFacetCounts {
  const days = countsOf(matched.map((r) => str(r.day)))
    .map(({ value, count }) => ({ day: value, count }))
    .sort((a, b) => byText(a.day, b.day));
  const rules = new Map<string, { rule_id: string; result: string; count: number }>();
  const tools = new Map<string, { tool: string; considered: number; invoked: number }>();
  for (const r of matched) {
    for (const [ruleId, result] of listColumn(r.rules)) {
      const key = JSON.stringify([ruleId, result]);
      const counted = rules.get(key) ?? { rule_id: str(ruleId), result: str(result), count: 0 };
      counted.count += 1;
      rules.set(key, counted);
    }
    for (const [tool, invoked] of listColumn(r.tools)) {
      const counted = tools.get(str(tool)) ?? { tool: str(tool), considered: 0, invoked: 0 };
      counted.considered += 1;
      if (invoked) counted.invoked += 1;
      tools.set(str(tool), counted);
    }
  }
  return {
    total: matched.length,
    complete,
    since: matched.length ? str(matched[matched.length - 1]!.created_at) : null,
    decisions: countsOf(matched.map((r) => str(r.decision))),
    intents: countsOf(matched.map((r) => str(r.intent))),
    rules: [...rules.values()]
      .sort((a, b) => b.count - a.count || byText(a.rule_id, b.rule_id) || byText(a.result, b.result))
      .slice(0, MAX_FACET_ROWS),
    tools: [...tools.values()]
      .sort((a, b) => b.considered - a.considered || byText(a.tool, b.tool))
      .slice(0, MAX_FACET_ROWS),
    days,
  };
}

/** A hit from its row. */
function hitOf(r: Row): TurnHit {
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

/**
 * Runs the facets with a store's `all`, over the newest matching turns of a window of FACET_SCAN
 * (or, when the driver is the only condition, over its newest FACET_TURNS turns).
 */
export async function runFacets(
  all: (w: Where) => Promise<Row[]>,
  plan: SearchPlan,
): Promise<TurnFacetCounts> {
  if (plan.filter === TRUE) {
    // Every candidate matches: the newest FACET_TURNS of the driver are the counted turns, read
    // at once (the window would only bound a read that is bounded already).
    const matched = await all(matchedSql(plan, null));
    return facetCounts(matched, matched.length < FACET_TURNS);
  }
  const { low, last } = await nextWindow(all, plan, FACET_SCAN);
  const matched = low === null ? [] : await all(matchedSql(plan, low));
  return facetCounts(matched, last && matched.length < FACET_TURNS);
}
