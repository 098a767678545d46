/** One row per turn for the thread view: intent, decision, and rule counts by result. Pure. */
import type { TolerantTrace } from '../../contract/trace';

export interface TurnSummary {
  id: string;
  index: number;
  intent: string;
  decision: string;
  /** Rule results in first-seen order, e.g. [['allowed', 3], ['blocked', 1]]. */
  ruleCounts: Array<[result: string, count: number]>;
  toolsInvoked: number;
  userText: string;
  /** What the turn ran with: a local bundle's hash, null = the agent's own, absent = not recorded. */
  bundleHash?: string | null | undefined;
  versionId?: string | undefined;
}

export interface SummaryInput {
  id: string;
  index: number;
  decision: string;
  userText: string;
  trace?: TolerantTrace | undefined;
  bundleHash?: string | null | undefined;
  versionId?: string | undefined;
}

export function countRuleResults(trace: TolerantTrace | undefined): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const r of trace?.rules_evaluated ?? []) {
    const key = r.result || 'unknown';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()];
}

/** Each turn summarised once (turns are kept as the same objects while nothing shown changes). */
const summaries = new WeakMap<SummaryInput, TurnSummary>();

export function summaryOf(t: SummaryInput): TurnSummary {
  let summary = summaries.get(t);
  if (!summary) {
    summary = {
      id: t.id,
      index: t.index,
      intent: t.trace?.intent || '',
      decision: t.trace?.decision || t.decision,
      ruleCounts: countRuleResults(t.trace),
      toolsInvoked: t.trace?.tools_invoked.length ?? 0,
      userText: t.userText,
      bundleHash: t.bundleHash,
      versionId: t.versionId,
    };
    summaries.set(t, summary);
  }
  return summary;
}

export function summarizeTurns(turns: readonly SummaryInput[]): TurnSummary[] {
  return turns.map(summaryOf);
}
