/**
 * A search as the app holds it: a list of filters (field and value), kept in the URL as the
 * service's own query string (`rule=DISPUTE_WINDOW:blocked&param=transaction-amount>500&q=coffee`),
 * so a search is a link. Within a field the values are alternatives; across fields all must hold.
 * Pure: no React, no fetch.
 */

const FIND_FIELDS = [
  'agent',
  'rule',
  'tool',
  'decision',
  'intent',
  'param',
  'where',
  'version',
  'bundle',
  'task',
  'user',
  'from',
  'to',
  'q',
] as const;
export type FindField = (typeof FIND_FIELDS)[number];

export interface FindFilter {
  field: FindField;
  value: string;
}

/** At most this many filters in one search (the service caps each field too). */
const MAX_FILTERS = 50;
const isField = (f: string): f is FindField => (FIND_FIELDS as readonly string[]).includes(f);
const same = (a: FindFilter, b: FindFilter) => a.field === b.field && a.value === b.value;

/** The filters of a query string: known fields with a value, each once, in order. */
export function filtersOf(find: string): FindFilter[] {
  const out: FindFilter[] = [];
  for (const [field, raw] of new URLSearchParams(find)) {
    const value = raw.trim();
    if (!isField(field) || !value || out.length >= MAX_FILTERS) continue;
    const filter = { field, value };
    if (!out.some((f) => same(f, filter))) out.push(filter);
  }
  return out;
}

/** The query string of a list of filters. */
export function findOf(filters: readonly FindFilter[]): string {
  const params = new URLSearchParams();
  for (const f of filters) params.append(f.field, f.value);
  return params.toString();
}

export const withFilter = (find: string, filter: FindFilter): string =>
  findOf([...filtersOf(find).filter((f) => !same(f, filter)), filter]);

export const withoutFilter = (find: string, filter: FindFilter): string =>
  findOf(filtersOf(find).filter((f) => !same(f, filter)));

/** A filter in words, for its chip: "DISPUTE_WINDOW blocked", "transaction-amount > 500". */
export function describeFilter(f: FindFilter): string {
  if (f.field === 'rule' || f.field === 'tool') {
    const [name, qualifier] = splitOnce(f.value, ':');
    return qualifier ? `${f.field} ${name} ${qualifier.replaceAll('_', ' ')}` : `${f.field} ${name}`;
  }
  if (f.field === 'param' || f.field === 'where') {
    if (f.field === 'where' && f.value.startsWith('!')) return `${f.value.slice(1)} has no value`;
    const at = f.value.search(/[=<>]/);
    if (at === -1) return `${f.value} has a value`;
    const op = f.value[at] !== '=' && f.value[at + 1] === '=' ? f.value.slice(at, at + 2) : f.value[at]!;
    return `${f.value.slice(0, at)} ${op} ${f.value.slice(at + op.length)}`;
  }
  if (f.field === 'q') return `words “${f.value}”`;
  return `${f.field} ${f.value}`;
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i === -1 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

/**
 * What a person typed into the search box: `field:value` for a filter (`rule:DISPUTE_WINDOW:blocked`,
 * `param:transaction-amount>500`, `decision:proceed`), anything else words to find. Null when empty.
 */
export function typedFilter(typed: string): FindFilter | null {
  const text = typed.trim();
  if (!text) return null;
  const [field, value] = splitOnce(text, ':');
  if (isField(field) && value.trim()) return { field, value: value.trim() };
  return { field: 'q', value: text };
}
