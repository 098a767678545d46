/**
 * "Did you mean ...?" for misspelt codes: the closest known name by edit distance.
 *
 * Bounded by construction: names longer than `MAX_SUGGEST_LENGTH` get no suggestion, at most
 * `MAX_CANDIDATES` known names are compared, and the distance is computed only within the band
 * of edits that could still count as a typo, so one lookup costs at most about
 * MAX_CANDIDATES × MAX_SUGGEST_LENGTH × (2 × limit + 1) steps whatever the input. Within a work
 * budget (see `work-budget.ts`) the comparisons draw on its optional allowance: once that is
 * spent, later lookups suggest nothing rather than slow the validation down.
 */

import { spendOptional } from './work-budget';

/** Names longer than this are not compared (no typo hint for them). */
export const MAX_SUGGEST_LENGTH = 64;
/** Known names compared per lookup, in their order of definition. */
const MAX_CANDIDATES = 1000;

/**
 * The edit distance between `a` and `b` when it is at most `limit`, else `limit + 1`. Only the
 * diagonal band of width 2 × limit + 1 is computed, and the scan stops once every cell in a row
 * exceeds the limit.
 */
export function editDistanceWithin(a: string, b: string, limit: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const over = limit + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j <= limit ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    cur[from - 1] = from - 1 === 0 && i <= limit ? i : over;
    let rowMin = cur[from - 1]!;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const up = j <= i - 1 + limit ? prev[j]! : over;
      const d = Math.min(up + 1, cur[j - 1]! + 1, prev[j - 1]! + cost, over);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (to < b.length) cur[to + 1] = over;
    if (rowMin > limit) return over;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[b.length]!, over);
}

/** How many edits still count as a typo of `name`: a third of its length, at least 2. */
const typoLimit = (name: string) => Math.max(2, Math.floor(name.length / 3));

/**
 * The known name closest to `name`, if it is close enough to be a plausible typo (a third of the
 * length, at least 2 edits; case and `_`/`-` differences count as nothing). Ties keep the first.
 */
export function closestMatch(name: string, known: Iterable<string>): string | undefined {
  if (name.length > MAX_SUGGEST_LENGTH) return undefined;
  const fold = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  const target = fold(name);
  const limit = typoLimit(name);
  let best: string | undefined;
  let bestDistance = limit + 1;
  let compared = 0;
  for (const candidate of known) {
    if (compared++ >= MAX_CANDIDATES) break;
    if (candidate === name || candidate.length > MAX_SUGGEST_LENGTH) continue;
    const folded = fold(candidate);
    const within = bestDistance - 1;
    // The cells the banded comparison may fill (1 when the lengths alone rule it out).
    const cost = Math.abs(folded.length - target.length) > within ? 1 : 1 + target.length * (2 * within + 1);
    if (!spendOptional(cost)) break;
    const d = editDistanceWithin(target, folded, within);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      if (d === 0) break;
    }
  }
  return best;
}

/** Known names, as a list or as the keys of a set or map. */
export type KnownNames = readonly string[] | ReadonlySet<string> | ReadonlyMap<string, unknown>;

const countOf = (known: KnownNames) => ('size' in known ? known.size : known.length);
const namesOf = (known: KnownNames): Iterable<string> =>
  Array.isArray(known) ? known : (known as ReadonlySet<string> | ReadonlyMap<string, unknown>).keys();
/** A name as listed in a hint: long names are cut, so a hint stays short whatever the bundle holds. */
const listed = (name: string) =>
  name.length > MAX_SUGGEST_LENGTH ? `${name.slice(0, MAX_SUGGEST_LENGTH - 1)}…` : name;

/**
 * The hint appended to an "unknown X" message: " Did you mean 'x'?", or for a short list
 * " Defined parameters: 'a', 'b'.", or " No parameters are defined.", or nothing.
 */
export function suggestion(name: string, known: KnownNames, plural: string, quote = "'"): string {
  const close = closestMatch(name, namesOf(known));
  if (close !== undefined) return ` Did you mean ${quote}${close}${quote}?`;
  const count = countOf(known);
  if (count === 0) return ` No ${plural} are defined.`;
  if (count <= 8)
    return ` Defined ${plural}: ${[...namesOf(known)].map((k) => `${quote}${listed(k)}${quote}`).join(', ')}.`;
  return '';
}
