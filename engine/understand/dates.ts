/**
 * Dates, absolute and relative ("10 days ago", "next Friday", "March 3"), read against the task's
 * clock. A range ("from April 3 to April 10") gives its first day and its last (`last`). A weekday
 * alone after a word that starts something ("starting Friday", "from Monday") is the coming one,
 * never one already past; elsewhere ("a charge on Friday") the nearest, as chrono-node reads it.
 */
import * as chrono from 'chrono-node';
import { epochDayToIso, type Clock } from '../clock';
import type { Found } from './quoted';

/** A date read from a word for the present moment ("now", "today"): a filler word as often as a date. */
export interface FoundDate extends Found<string> {
  casual: boolean;
  /** The last day of a range ("from April 3 to April 10"). */
  last?: string;
}
const CASUAL = /^(?:right\s+)?(?:now|today|tonight)$/i;
/** Words after which a weekday alone is the coming one. */
const STARTS = /\b(?:starting|starts?|from|beginning|begins?|as\s+of)\s+(?:on\s+)?$/i;
const DAY_MS = 86_400_000;

const dayOf = (c: chrono.ParsedComponents): number | undefined => {
  const y = c.get('year');
  const mo = c.get('month');
  const d = c.get('day');
  if (y == null || mo == null || d == null) return undefined;
  const t = Date.UTC(y, mo - 1, d);
  return Number.isFinite(t) ? Math.floor(t / DAY_MS) : undefined;
};

export function findDates(text: string, clock: Clock): FoundDate[] {
  if (!/[\p{L}\p{N}]/u.test(text)) return [];
  let results: chrono.ParsedResult[];
  try {
    results = chrono.parse(text, { instant: new Date(clock.instant), timezone: 0 });
  } catch {
    return [];
  }
  const out: FoundDate[] = [];
  for (const r of results) {
    let day = dayOf(r.start);
    if (day === undefined) continue;
    const weekdayAlone = r.start.isCertain('weekday') && !r.start.isCertain('day');
    if (weekdayAlone && day < clock.day && STARTS.test(text.slice(Math.max(0, r.index - 20), r.index)))
      day += 7 * Math.ceil((clock.day - day) / 7);
    const last = r.end ? dayOf(r.end) : undefined;
    out.push({
      start: r.index,
      end: r.index + r.text.length,
      value: epochDayToIso(day),
      casual: CASUAL.test(r.text.trim()),
      ...(last !== undefined && last > day ? { last: epochDayToIso(last) } : {}),
    });
  }
  return out;
}
