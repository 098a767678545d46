/**
 * A rule's page in numbers: the searches that count a rule's evaluations (all of them, and each
 * result), its results with their counts (read from the counts of the search for the rule), and
 * the matching turns per day of each result as series over the same consecutive days, ready to
 * draw. Pure: no React, no fetch.
 */
import { findOf, type FindFilter } from './find';

/** Days drawn at most (the newest). */
export const MAX_CHART_DAYS = 90;

/** The search for a rule's turns in an agent's threads, with one result or any. */
export function ruleFind(agentId: string, ruleId: string, result?: string): string {
  const filters: FindFilter[] = [];
  if (agentId) filters.push({ field: 'agent', value: agentId });
  filters.push({ field: 'rule', value: result ? `${ruleId}:${result}` : ruleId });
  return findOf(filters);
}

/** The rule's results in the counts of its search, most frequent first. */
export function ruleResults(
  rules: readonly { rule_id: string; result: string; count: number }[],
  ruleId: string,
): { result: string; count: number }[] {
  return rules
    .filter((r) => r.rule_id === ruleId && r.result)
    .map((r) => ({ result: r.result, count: r.count }))
    .sort((a, b) => b.count - a.count || a.result.localeCompare(b.result));
}

export interface DailySeries {
  /** Consecutive days (YYYY-MM-DD), oldest first. */
  days: string[];
  series: { result: string; counts: number[] }[];
  /** The largest total of one day. */
  max: number;
}

const DAY_MS = 24 * 3600 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * Each result's counts per day over the same consecutive days (days without a turn count 0),
 * from the first day any result was seen to the last, at most the newest MAX_CHART_DAYS.
 */
export function dailySeries(
  perResult: readonly { result: string; days: readonly { day: string; count: number }[] }[],
): DailySeries {
  let last = Number.NEGATIVE_INFINITY;
  let first = Number.POSITIVE_INFINITY;
  for (const r of perResult)
    for (const d of r.days) {
      const ms = msOf(d.day);
      if (Number.isNaN(ms)) continue;
      last = Math.max(last, ms);
      first = Math.min(first, ms);
    }
  if (!Number.isFinite(last)) return { days: [], series: [], max: 0 };
  first = Math.max(first, last - (MAX_CHART_DAYS - 1) * DAY_MS);
  const days: string[] = [];
  for (let ms = first; ms <= last; ms += DAY_MS) days.push(dayOf(ms));
  const at = new Map(days.map((d, i) => [d, i]));
  const totals = days.map(() => 0);
  const series = perResult.map((r) => {
    const counts = days.map(() => 0);
    for (const d of r.days) {
      const i = at.get(d.day);
      if (i === undefined) continue;
      counts[i]! += d.count;
      totals[i]! += d.count;
    }
    return { result: r.result, counts };
  });
  return { days, series, max: Math.max(0, ...totals) };
}
