/**
 * "What this edit changes" in words, from the engine's semantic diff (`DiffResult`): each
 * difference as one line (the tool, the region, the decision before → after with its deciding
 * rules), its witness (the values and the clock), and whether equivalence may be claimed. Pure.
 */
import type { DiffResult, Difference, NotAnalysed, SideOutcome, Witness } from '../../contract/analysis';
import { displayValue, plural } from '../../lib/format';
import { showDecision } from '../../lib/trace-tones';

/** One side's outcome: "blocked (DISPUTE_WINDOW)", "proceed". */
export function outcomeWords(side: SideOutcome): string {
  const decision = showDecision(side.decision)?.label ?? 'no decision';
  return side.rules.length > 0 ? `${decision} (${side.rules.join(', ')})` : decision;
}

/** "DISPUTE_CHARGE — transaction-date 9 to 29 days before the clock". */
export function regionTitle(d: Pick<Difference, 'tool' | 'region'>): string {
  return d.region.words ? `${d.tool} — ${d.region.words}` : d.tool;
}

/** "DISPUTE_CHARGE — transaction-date 9 to 29 days before the clock: blocked (DISPUTE_WINDOW) → proceed". */
export function differenceWords(d: Difference): string {
  return `${regionTitle(d)}: ${outcomeWords(d.before)} → ${outcomeWords(d.after)}`;
}

/** The witness's values and clock: "amount = 120, transaction-date = 2026-11-10 · clock 2026-11-28T12:00:00.000Z". */
export function witnessWords(w: Witness): string {
  const values = Object.entries(w.values).map(([k, v]) => `${k} = ${displayValue(v)}`);
  return `${values.length > 0 ? values.join(', ') : 'no values given'} · clock ${w.clock}`;
}

/** What was left out of an analysis, one line each. */
export function notAnalysedWords(items: readonly NotAnalysed[]): string[] {
  return items.map((n) => {
    const where = [n.tool, n.rule, n.param].filter(Boolean).join(' · ');
    return where ? `${where}: ${n.reason}` : n.reason;
  });
}

export interface DiffSummary {
  /** "Equivalent: no decision changes (N regions checked)", only when that is proved. */
  equivalent: string | null;
  /** How many differences, in words (null when equivalent). */
  headline: string | null;
  /** What was not analysed, when anything was: never claim equivalence then. */
  limits: string[];
}

export function summarizeDiff(r: DiffResult): DiffSummary {
  const limits = notAnalysedWords(r.not_analysed);
  if (r.capped)
    limits.unshift(
      'The analysis stopped at its limits, so differences may be missing from this list: it is not a proof that the rest is unchanged.',
    );
  const proved = r.equivalent && limits.length === 0;
  const checked = `${plural(r.regions, 'region')} checked`;
  return {
    equivalent: proved ? `Equivalent: no decision changes (${checked})` : null,
    headline: proved
      ? null
      : r.differences.length > 0
        ? `${plural(r.differences.length, 'decision change')} (${checked})`
        : `No decision change found (${checked}), but not everything was analysed:`,
    limits,
  };
}
