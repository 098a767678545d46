/**
 * The task's clock. Every date operation reads it (never the wall clock), so a conversation
 * replayed later makes the same date rules fire. Dates are calendar days in UTC.
 */
const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

export interface Clock {
  /** The instant (ms since epoch). */
  instant: number;
  /** The calendar day of the clock, as days since 1970-01-01 (UTC). */
  day: number;
}

export function parseClock(iso: string): Clock {
  const t = Date.parse(iso);
  const instant = Number.isFinite(t) ? t : 0;
  return { instant, day: Math.floor(instant / DAY_MS) };
}

/** Days since epoch of a date value (ISO date or date-time string, or epoch ms), or undefined. */
export function toEpochDay(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.floor(value / DAY_MS);
  if (typeof value !== 'string') return undefined;
  const m = ISO_DAY.exec(value.trim());
  if (m) {
    const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    return Number.isFinite(t) ? Math.floor(t / DAY_MS) : undefined;
  }
  return undefined;
}

export function epochDayToIso(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from the date to the clock's day (negative for a future date). */
export function daysSince(value: unknown, clock: Clock): number | undefined {
  const d = toEpochDay(value);
  return d === undefined ? undefined : clock.day - d;
}
