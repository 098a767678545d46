/**
 * Dates, absolute and relative ("10 days ago", "next Friday", "March 3"), read against the task's
 * clock. A range ("from 2 to 8 April") gives its first day.
 */
import * as chrono from 'chrono-node';
import { epochDayToIso, type Clock } from '../clock';
import type { Found } from './quoted';

/** A date read from a word for the present moment ("now", "today"): a filler word as often as a date. */
export interface FoundDate extends Found<string> {
  casual: boolean;
}
const CASUAL = /^(?:right\s+)?(?:now|today|tonight)$/i;

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
    const y = r.start.get('year');
    const mo = r.start.get('month');
    const d = r.start.get('day');
    if (y == null || mo == null || d == null) continue;
    const t = Date.UTC(y, mo - 1, d);
    if (!Number.isFinite(t)) continue;
    out.push({
      start: r.index,
      end: r.index + r.text.length,
      value: epochDayToIso(Math.floor(t / 86_400_000)),
      casual: CASUAL.test(r.text.trim()),
    });
  }
  return out;
}
