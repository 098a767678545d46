/**
 * The turn search a difference's region makes (`recorded` of `POST /reference/v1/diff`): the
 * agent's turns since a time that considered the region's tool and whose values lie in each of
 * its parts, in the turn search's own language (`src/contract/turn-query.ts`), so the count and
 * the search a person runs find the same turns. A part the search cannot say exactly (days before
 * each turn's own clock, a value to avoid, alternatives of two parameters at once) makes no search
 * at all, with the reason: never an approximate one. Pure.
 */
import type { Region, RegionPart } from '../../src/contract/analysis';

/** Query parameters of the turn search, each with its values, in order. */
export type SearchValues = [field: string, value: string][];

export type RegionSearch = { values: SearchValues } | { unsearchable: string };

/** Longest `code=value` the search reads (its values are cut there too). */
const MAX_VALUE = 200;
/** Characters the search reads as operators or separators: a name holding one cannot be searched. */
const OPERATOR_CHARACTERS = ['=', '<', '>', '!', ',', ':'];

const plainName = (name: string) =>
  name.length > 0 && name.length <= MAX_VALUE && !OPERATOR_CHARACTERS.some((c) => name.includes(c));

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A value as the turn index writes its text: strings as they are, numbers and booleans as JSON writes them. */
function valueText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return null;
}

type PartSearch = { where: string[]; alternatives?: string[] } | { unsearchable: string };

/** One bound of a part: `code>n`, `code>=n` (or `<`, `<=`), when the search can compare it. */
function bound(part: RegionPart, side: 'min' | 'max'): string | null | undefined {
  const value = part[side];
  if (value === undefined) return undefined;
  const inclusive = side === 'min' ? part.min_inclusive : part.max_inclusive;
  const op = (side === 'min' ? '>' : '<') + (inclusive ? '=' : '');
  if (part.axis === 'number' && typeof value === 'number' && Number.isFinite(value))
    return `${part.param}${op}${value}`;
  if (part.axis === 'date' && typeof value === 'string' && PLAIN_DATE.test(value))
    return `${part.param}${op}${value}`;
  return null;
}

/** What a part may say for the search to read it; anything else (e.g. "or not known") it cannot. */
const READ_KEYS = new Set([
  'param',
  'axis',
  'words',
  'unknown',
  'min',
  'min_inclusive',
  'max',
  'max_inclusive',
  'one_of',
  'none_of',
]);

function partSearch(part: RegionPart): PartSearch {
  const code = part.param;
  const unread = Object.keys(part).find((k) => !READ_KEYS.has(k));
  if (unread !== undefined)
    return {
      unsearchable: `${code.slice(0, 80)}: "${part.words.slice(0, 120)}" (${unread.slice(0, 40)}) is more than the turn search can say at once`,
    };
  if (!plainName(code))
    return {
      unsearchable: `parameter "${code.slice(0, 80)}": its name holds a character the search reads as an operator`,
    };
  if (part.unknown) return { where: [`!${code}`] };
  if (part.axis === 'days_ago')
    return {
      unsearchable: `${code}: its bounds count days before each turn's own clock, which the turn search cannot compare`,
    };
  if (part.none_of?.length) return { unsearchable: `${code}: the turn search has no "any value but these"` };
  const where: string[] = [];
  for (const side of ['min', 'max'] as const) {
    const b = bound(part, side);
    if (b === null)
      return { unsearchable: `${code}: its ${side} bound is not a number or a date the search compares` };
    if (b !== undefined) where.push(b);
  }
  const oneOf = part.one_of ?? [];
  if (oneOf.length === 0) return { where: where.length ? where : [code] };
  const texts: string[] = [];
  for (const v of oneOf) {
    const text = valueText(v);
    if (text === null || code.length + 1 + text.length > MAX_VALUE)
      return { unsearchable: `${code}: a value the search cannot match exactly` };
    texts.push(`${code}=${text}`);
  }
  if (part.axis === 'number') {
    // The index matches a number's text as it was written ("120" is not "120.0"): a single number
    // is searched as a range of one value instead, and a choice of numbers not at all.
    if (oneOf.length > 1)
      return { unsearchable: `${code}: a choice of numbers the search cannot match exactly` };
    return {
      where: [
        ...where,
        `${code}>=${texts[0]!.slice(code.length + 1)}`,
        `${code}<=${texts[0]!.slice(code.length + 1)}`,
      ],
    };
  }
  return texts.length === 1 ? { where: [...where, texts[0]!] } : { where, alternatives: texts };
}

/**
 * The search of `agentId`'s turns since `since` (ISO-8601) that considered `tool` with values in
 * `region`, or why there is none.
 */
export function regionSearch(agentId: string, tool: string, since: string, region: Region): RegionSearch {
  if (!plainName(agentId) || !plainName(tool))
    return { unsearchable: 'the agent or the tool has a name the search reads as an operator' };
  const values: SearchValues = [
    ['agent', agentId],
    ['tool', tool],
  ];
  let alternatives: string[] | undefined;
  for (const part of region.parts) {
    const found = partSearch(part);
    if ('unsearchable' in found) return found;
    for (const w of found.where) values.push(['where', w]);
    if (found.alternatives) {
      // The search's alternatives are those of one field (`param`): one part may use them.
      if (alternatives)
        return {
          unsearchable: 'two parameters each with a choice of values, which the search cannot combine',
        };
      alternatives = found.alternatives;
    }
  }
  for (const a of alternatives ?? []) values.push(['param', a]);
  values.push(['from', since]);
  return { values };
}

/** The search as its query string: `GET /reference/v1/turns?…`, and the web app's search (`find=…`). */
export const searchText = (values: SearchValues): string => new URLSearchParams(values).toString();
