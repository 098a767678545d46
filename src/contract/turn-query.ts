/**
 * The filter language of the turn search (`GET /reference/v1/turns` and `/turns/facets`, and the
 * SPA's search over fetched turns): a query's fields read into filters, every list capped, the
 * text reduced to plain words; a value that cannot be read is a `TurnQueryError` naming its field.
 * Within a field the values are alternatives (OR); across fields every one must hold (AND), and
 * every value of `where` must hold (`where=amount>500&where=amount<=1000&where=!card-id`). Pure.
 */
import { decisionsLabelled } from '../lib/trace-tones';

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
/** A comparison of a parameter's value with a number or a date. */
export type Comparison = '>' | '<' | '>=' | '<=';
export type ParamFilter =
  | { code: string; op: 'present' }
  | { code: string; op: '='; value: string }
  | { code: string; op: Comparison; number: number }
  | { code: string; op: Comparison; date: string };
/** A `where` condition: a parameter filter, or a parameter with no value (`!code`). */
export type Condition = ParamFilter | { code: string; op: 'absent' };

export interface TurnQuery {
  agents: string[];
  rules: RuleFilter[];
  tools: ToolFilter[];
  decisions: string[];
  intents: string[];
  params: ParamFilter[];
  /** Conditions that must all hold (`where`), unlike the alternatives of `params`. */
  where: Condition[];
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
const MAX_VALUES_PER_FIELD = 50;
const MAX_WORDS = 16;
const MAX_VALUE_LENGTH = 200;

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;
/** A number as a query or a stored value writes it. */
export const NUMBER = /^-?\d+(\.\d+)?$/;

/** The values of a field: repeated parameters, each also split at commas (ids hold no commas). */
export function listOf(all: Record<string, string[]>, field: string, split = true): string[] {
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

/** `code`, `code=value`, `code>n`, `code>=n`, `code<n`, `code<=n` (numbers, or dates as 2025-03-01). */
function paramFilter(raw: string, field = 'param'): ParamFilter {
  const at = raw.search(/[=<>]/);
  if (at === -1) return { code: raw, op: 'present' };
  const code = raw.slice(0, at).trim();
  const inclusive = raw[at] !== '=' && raw[at + 1] === '=';
  const op = (inclusive ? raw.slice(at, at + 2) : raw[at]) as '=' | Comparison;
  const operand = raw.slice(at + op.length).trim();
  if (!code) throw new TurnQueryError(field, `${field} "${raw}": name a parameter before ${op}`);
  if (op === '=') return { code, op, value: operand };
  if (NUMBER.test(operand)) return { code, op, number: Number(operand) };
  if (DATE.test(operand) && !Number.isNaN(Date.parse(operand))) return { code, op, date: operand };
  throw new TurnQueryError(
    field,
    `${field} "${raw}": ${op} compares with a number (${code}${op}500) or a date (${code}${op}2025-03-01)`,
  );
}

/** A `where` condition: a parameter filter, or `!code` for a parameter with no value. */
function condition(raw: string): Condition {
  if (!raw.startsWith('!')) return paramFilter(raw, 'where');
  const code = raw.slice(1).trim();
  if (!code || /[=<>]/.test(code))
    throw new TurnQueryError('where', `where "${raw}": write !code for a parameter with no value`);
  return { code, op: 'absent' };
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

/** A word, for text search: a run of letters and digits (so `jane@example.com` is three words). */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A text as the words text search sees, separated by spaces: what PostgreSQL's `tsvector` is made
 * from, so that its parser (which keeps an email, a URL or a path as one token) splits a text
 * exactly as the query is split, and as SQLite's FTS5 tokenizer does.
 */
export const searchableText = (text: string): string => (text.match(WORD) ?? []).join(' ');

/** Letters and digits runs of the text query, at most MAX_WORDS of them. */
function queryWords(q: string): string[] {
  const words = q.toLowerCase().match(WORD) ?? [];
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
    // A decision by its wire value, or by the word the app shows for it (`blocked` is every
    // decision shown as blocked: `block_with_explanation` and its spellings).
    decisions: [
      ...new Set(
        listOf(all, 'decision').flatMap((d) => {
          const labelled = decisionsLabelled(d);
          return labelled.length > 0 ? labelled : [d];
        }),
      ),
    ],
    intents: listOf(all, 'intent'),
    params: listOf(all, 'param', false).map((p) => paramFilter(p)),
    where: listOf(all, 'where', false).map(condition),
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
