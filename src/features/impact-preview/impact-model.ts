/**
 * The impact preview's pure logic: the saved cases as the impact request's conversations, and the
 * service's answer as rows a user reads (case, turn, decision before → after, and whether the
 * turn now fails what its case expects). Expectations are checked here, with the shared
 * comparison, on the outcomes the service answers; the service never sees them.
 */
import type { ImpactCase, ImpactResponse, OutcomeDifference } from '../../contract/impact';
import { compareTurn, type Mismatch, type TestCase } from '../../lib/test-cases';

/** A saved case as the suites store holds it. */
export interface SavedCase {
  id: string;
  file: string;
  testCase: TestCase;
}

/** The conversations to replay: each case's clock, user and messages, named by its id. */
export function impactCases(saved: readonly SavedCase[]): ImpactCase[] {
  return saved.map(({ id, testCase }) => ({
    id,
    clock: testCase.clock,
    ...(testCase.user_id === undefined ? {} : { user_id: testCase.user_id }),
    messages: testCase.turns.map((t) => t.say),
  }));
}

/** How the turn stands against its case's expectations, before and with the draft. */
export type Verdict = 'now fails' | 'still fails' | 'now passes' | 'passes';

export interface ImpactRow {
  caseId: string;
  caseName: string;
  file: string;
  /** 1-based, as turns are shown. */
  turn: number;
  message: string;
  decisionBefore: string;
  decisionAfter: string;
  differences: OutcomeDifference[];
  verdict: Verdict;
  /** What the turn now fails (empty when it passes). */
  mismatches: Mismatch[];
}

export interface ImpactProblem {
  caseId: string;
  caseName: string;
  text: string;
}

export interface ImpactSummary {
  total: number;
  changed: number;
  rows: ImpactRow[];
  /** Cases that could not run to their end with one of the two bundles. */
  problems: ImpactProblem[];
  /** Vs what: "v2" or the version id. */
  baseline: string;
}

function verdictOf(failedBefore: boolean, failsNow: boolean): Verdict {
  if (failsNow) return failedBefore ? 'still fails' : 'now fails';
  return failedBefore ? 'now passes' : 'passes';
}

/** The answer, case by case in suite order; cases the answer does not name are left out. */
export function impactSummary(saved: readonly SavedCase[], answer: ImpactResponse): ImpactSummary {
  const byId = new Map(saved.map((s) => [s.id, s]));
  const rows: ImpactRow[] = [];
  const problems: ImpactProblem[] = [];
  for (const result of answer.cases) {
    const entry = byId.get(result.id);
    if (!entry) continue;
    const { testCase } = entry;
    for (const change of result.changes) {
      const expect = testCase.turns[change.turn]?.expect;
      const before = expect ? compareTurn(expect, change.before) : [];
      const after = expect ? compareTurn(expect, change.after) : [];
      rows.push({
        caseId: entry.id,
        caseName: testCase.name,
        file: entry.file,
        turn: change.turn + 1,
        message: change.message,
        decisionBefore: change.before.trace.decision,
        decisionAfter: change.after.trace.decision,
        differences: change.differences,
        verdict: verdictOf(before.length > 0, after.length > 0),
        mismatches: after,
      });
    }
    if (result.error) {
      const bundle = result.error.side === 'draft' ? 'the draft' : 'the active version';
      problems.push({
        caseId: entry.id,
        caseName: testCase.name,
        text: `Turn ${result.error.turn + 1} could not run with ${bundle}: ${result.error.message}`,
      });
    }
  }
  return {
    total: answer.total,
    changed: answer.changed,
    rows,
    problems,
    baseline: answer.baseline.version_tag ?? answer.baseline.version_id,
  };
}

/** "a rule WINDOW: blocked → allowed"-style words for one difference. */
export function describeDifference(d: OutcomeDifference): string {
  switch (d.kind) {
    case 'decision':
      return `decision: ${d.before} → ${d.after}`;
    case 'rule':
      return `rule ${d.subject}: ${d.before} → ${d.after}`;
    case 'tool':
      return `tool ${d.subject}: ${d.before} → ${d.after}`;
  }
}
