/**
 * Durations ("for 6 days", "a 2-week pass", "3 nights", "two months", "a fortnight", "half a
 * day"): a quantity of a unit, read
 * before dates so that a length of time is never taken for a date counted from the task's clock.
 * A count of units followed by "ago", "from now", "later", "before" or "after", or preceded by
 * "in", is a relative date and is left to the date reader.
 */
import type { Found } from './quoted';

export type DurationUnit = 'hour' | 'day' | 'night' | 'week' | 'fortnight' | 'month' | 'year';
export interface Duration {
  amount: number;
  unit: DurationUnit;
}

const WORD_NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  half: 0.5,
};

const DURATION = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,-])(?:for\s+)?(\d{1,4}|${Object.keys(WORD_NUMBERS).join('|')})(\s+an?)?[\s-]+(hour|day|night|week|fortnight|month|year)s?\b`,
  'giu',
);
/** What makes a count of units a relative date rather than a length. */
const RELATIVE_AFTER = /^\s*(?:ago|from\s+(?:now|today)|later|earlier|before|after|back|hence)\b/i;
const RELATIVE_BEFORE = /\b(?:in|within)\s+$/i;

export function findDurations(text: string): Found<Duration>[] {
  const out: Found<Duration>[] = [];
  for (const m of text.matchAll(DURATION)) {
    const end = m.index + m[0].length;
    if (RELATIVE_AFTER.test(text.slice(end, end + 20))) continue;
    if (!/^for\s/i.test(m[0]) && RELATIVE_BEFORE.test(text.slice(Math.max(0, m.index - 10), m.index)))
      continue;
    const count = m[1]!.toLowerCase();
    const amount = WORD_NUMBERS[count] ?? Number(count);
    const unit = m[3]!.toLowerCase() as DurationUnit;
    // "a"/"an" between the count and the unit only after "half" ("half a day", not "3 a day").
    if (m[2] !== undefined && count !== 'half') continue;
    // "a day" on its own is too common a phrase ("twice a day"): a word count needs "for" before
    // it, except "a fortnight".
    if (count in WORD_NUMBERS && count.length <= 2 && unit !== 'fortnight' && !/^for\s/i.test(m[0])) continue;
    out.push({ start: m.index, end, value: { amount, unit } });
  }
  return out;
}

/** Days in one unit, for a parameter that counts days (a month is 30 days, a year 365). */
const DAYS: Partial<Record<DurationUnit, number>> = { day: 1, week: 7, fortnight: 14, month: 30, year: 365 };

/**
 * How many units of a parameter a duration makes: the parameter's unit is one of its words; a
 * parameter counting days (or nights) takes weeks, fortnights, months and years in days; one
 * counting weeks takes fortnights.
 */
export function durationIn(d: Duration, words: ReadonlySet<string>): number | undefined {
  if (words.has(d.unit)) return d.amount;
  if (d.unit === 'fortnight' && words.has('week')) return d.amount * 2;
  const days = DAYS[d.unit];
  if (days !== undefined && d.unit !== 'day' && (words.has('day') || words.has('night')))
    return d.amount * days;
  return undefined;
}
