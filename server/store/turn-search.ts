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

/** A `WHERE` body over `turn_index AS ti` with `?` placeholders and its arguments in order. */
export interface Where {
  sql: string;
  args: unknown[];
}

/**
 * The conditions of a query, restricted to `allowedAgents` (null: every agent). Table names:
 * `turn_index` (one row a turn), `turn_index_rules`, `turn_index_tools`, `turn_index_values`,
 * and for words `turn_index_text` (SQLite FTS5) or the `text_tsv` column (PostgreSQL).
 */
export function whereOf(q: TurnQuery, allowedAgents: readonly string[] | null, dialect: Dialect): Where {
  const parts: string[] = [];
  const args: unknown[] = [];
  const inList = (column: string, values: readonly unknown[]) => {
    parts.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    args.push(...values);
  };
  if (allowedAgents) {
    if (allowedAgents.length === 0) parts.push('1 = 0');
    else inList('ti.agent_id', allowedAgents);
  }
  if (q.agents.length) inList('ti.agent_id', q.agents);
  if (q.decisions.length) inList('ti.decision', q.decisions);
  if (q.intents.length) inList('ti.intent', q.intents);
  if (q.versions.length) inList('ti.version_id', q.versions);
  if (q.bundles.length) inList('ti.bundle_hash', q.bundles);
  if (q.tasks.length) inList('ti.task_id', q.tasks);
  if (q.users.length) inList('ti.user_id', q.users);
  if (q.from !== undefined) {
    parts.push('ti.created_at >= ?');
    args.push(q.from);
  }
  if (q.to !== undefined) {
    parts.push('ti.created_at < ?');
    args.push(q.to);
  }
  if (q.rules.length) {
    const alts = q.rules.map((r) => {
      args.push(r.ruleId);
      if (r.result === undefined) return 'rule_id = ?';
      args.push(r.result);
      return '(rule_id = ? AND result = ?)';
    });
    parts.push(`ti.id IN (SELECT turn FROM turn_index_rules WHERE ${alts.join(' OR ')})`);
  }
  if (q.tools.length) {
    const alts = q.tools.map((t) => {
      args.push(t.tool);
      return t.invoked ? `(tool = ? AND invoked = ${dialect === 'sqlite' ? 1 : 'true'})` : 'tool = ?';
    });
    parts.push(`ti.id IN (SELECT turn FROM turn_index_tools WHERE ${alts.join(' OR ')})`);
  }
  if (q.params.length) {
    const alts = q.params.map((p) => {
      args.push(p.code);
      if (p.op === 'present') return 'code = ?';
      if (p.op === '=') {
        args.push(p.value);
        return '(code = ? AND value_text = ?)';
      }
      if ('number' in p) {
        args.push(p.number);
        return `(code = ? AND value_num ${p.op} ?)`;
      }
      args.push(p.date);
      return `(code = ? AND value_date ${p.op} ?)`;
    });
    parts.push(`ti.id IN (SELECT turn FROM turn_index_values WHERE ${alts.join(' OR ')})`);
  }
  if (q.words.length) {
    if (dialect === 'sqlite') {
      // Each word quoted: FTS5 reads it as a plain term, never as query syntax.
      parts.push('ti.id IN (SELECT rowid FROM turn_index_text WHERE turn_index_text MATCH ?)');
      args.push(q.words.map((w) => `"${w}"`).join(' '));
    } else {
      parts.push(`ti.text_tsv @@ plainto_tsquery('english', ?)`);
      args.push(q.words.join(' '));
    }
  }
  return { sql: parts.length ? parts.join(' AND ') : '1 = 1', args };
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

export interface FacetCount {
  value: string;
  count: number;
}
export interface TurnFacetCounts {
  total: number;
  decisions: FacetCount[];
  intents: FacetCount[];
  rules: { rule_id: string; result: string; count: number }[];
  tools: { tool: string; considered: number; invoked: number }[];
  /** Turns per day (UTC), oldest first. */
  days: { day: string; count: number }[];
}

/** Characters of the message and the reply a hit carries (the turn itself has the whole text). */
export const HIT_TEXT = 300;
/** At most this many rows in each facet list (rules, tools, intents: the most frequent first). */
export const MAX_FACET_ROWS = 200;
/** At most this many days in the per-day counts (the newest). */
export const MAX_FACET_DAYS = 1000;

const HIT_COLUMNS = `ti.id, ti.task_id, ti.seq, ti.interaction_id, ti.agent_id, ti.version_id, ti.bundle_hash,
  ti.user_id, ti.created_at, ti.intent, ti.decision, ti.deciding_rule,
  substr(t.user_text, 1, ${HIT_TEXT}) AS message, substr(t.reply_text, 1, ${HIT_TEXT}) AS reply`;

/** Newest first, below `before` (an order key from a previous page) when given. */
export function hitsSql(where: Where, before: number | null, limit: number): Where {
  const page = before === null ? '' : ' AND ti.id < ?';
  return {
    sql: `SELECT ${HIT_COLUMNS} FROM turn_index AS ti
      JOIN turns AS t ON t.task_id = ti.task_id AND t.seq = ti.seq
      WHERE ${where.sql}${page} ORDER BY ti.id DESC LIMIT ?`,
    args: [...where.args, ...(before === null ? [] : [before]), limit],
  };
}

/** The facet queries over the matching turns; each answers rows of (key columns…, counts). */
export function facetSqls(
  where: Where,
): Record<'total' | 'decisions' | 'intents' | 'rules' | 'tools' | 'days', Where> {
  const from = `FROM turn_index AS ti WHERE ${where.sql}`;
  const a = where.args;
  return {
    total: { sql: `SELECT COUNT(*) AS count ${from}`, args: a },
    decisions: {
      sql: `SELECT ti.decision AS value, COUNT(*) AS count ${from} GROUP BY ti.decision ORDER BY count DESC, value LIMIT ${MAX_FACET_ROWS}`,
      args: a,
    },
    intents: {
      sql: `SELECT ti.intent AS value, COUNT(*) AS count ${from} GROUP BY ti.intent ORDER BY count DESC, value LIMIT ${MAX_FACET_ROWS}`,
      args: a,
    },
    rules: {
      sql: `SELECT r.rule_id, r.result, COUNT(*) AS count FROM turn_index AS ti
        JOIN turn_index_rules AS r ON r.turn = ti.id WHERE ${where.sql}
        GROUP BY r.rule_id, r.result ORDER BY count DESC, r.rule_id, r.result LIMIT ${MAX_FACET_ROWS}`,
      args: a,
    },
    tools: {
      sql: `SELECT x.tool, COUNT(*) AS considered, SUM(CASE WHEN x.invoked THEN 1 ELSE 0 END) AS invoked
        FROM turn_index AS ti JOIN turn_index_tools AS x ON x.turn = ti.id WHERE ${where.sql}
        GROUP BY x.tool ORDER BY considered DESC, x.tool LIMIT ${MAX_FACET_ROWS}`,
      args: a,
    },
    days: {
      sql: `SELECT day, count FROM (SELECT ti.day AS day, COUNT(*) AS count ${from}
        GROUP BY ti.day ORDER BY ti.day DESC LIMIT ${MAX_FACET_DAYS}) AS newest ORDER BY day`,
      args: a,
    },
  };
}

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The facet answers from their rows (counts may come back as text from PostgreSQL). */
export function facetCounts(rows: Record<keyof ReturnType<typeof facetSqls>, Row[]>): TurnFacetCounts {
  const counted = (rs: Row[]) => rs.map((r) => ({ value: str(r.value), count: num(r.count) }));
  return {
    total: num(rows.total[0]?.count),
    decisions: counted(rows.decisions),
    intents: counted(rows.intents),
    rules: rows.rules.map((r) => ({ rule_id: str(r.rule_id), result: str(r.result), count: num(r.count) })),
    tools: rows.tools.map((r) => ({
      tool: str(r.tool),
      considered: num(r.considered),
      invoked: num(r.invoked),
    })),
    days: rows.days.map((r) => ({ day: str(r.day), count: num(r.count) })),
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
