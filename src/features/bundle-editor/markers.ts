/**
 * Bundle issues → editor markers and problems-list entries. Each issue's `loc` (a path into the
 * bundle) is found in the text with the shared locator; the validator's issues and the service's
 * 422 issues go through the same mapping, so both underline the same spot. When a path does not
 * exist in the text (a missing field), the locator marks the nearest existing ancestor.
 *
 * Pure: no Monaco import (severities are plain strings; the editor maps them).
 */
import type { BundleIssue } from '../../contract/api';
import { locateInJson, offsetToLineColumn } from '../../lib/bundle/locate';
import type { DraftAnalysis } from '../../domain/bundles/analysis';

export type ProblemSource = 'validator' | 'service' | 'json';

export interface Problem {
  /** Stable key for lists. */
  id: string;
  source: ProblemSource;
  severity: 'error' | 'warning';
  code: string;
  message: string;
  loc: (string | number)[];
  /** Offsets into the text; the marked range. */
  start: number;
  end: number;
  /** 1-based, as Monaco counts. */
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
  /** False when only a parent of `loc` (or the document) could be found. */
  exact: boolean;
}

type Loc = (string | number)[];

/** The range of `loc` in `text` (the shared locator falls back to the nearest ancestor itself). */
export function rangeOf(text: string, loc: Loc): { start: number; end: number; exact: boolean } {
  const r = locateInJson(text, loc);
  if (r) return { start: r.start, end: r.end, exact: r.exact };
  const first = text.search(/\S/);
  const start = first === -1 ? 0 : first;
  return { start, end: Math.min(text.length, start + 1), exact: false };
}

function withPosition(
  text: string,
  p: Omit<Problem, 'startLineNumber' | 'startColumn' | 'endLineNumber' | 'endColumn'>,
): Problem {
  const s = offsetToLineColumn(text, p.start);
  const e = offsetToLineColumn(text, Math.max(p.start, p.end));
  return { ...p, startLineNumber: s.line, startColumn: s.column, endLineNumber: e.line, endColumn: e.column };
}

export function issueProblems(
  text: string,
  issues: readonly BundleIssue[],
  source: ProblemSource,
): Problem[] {
  return issues.map((issue, i) => {
    const { start, end, exact } = rangeOf(text, issue.loc);
    return withPosition(text, {
      id: `${source}:${i}:${issue.code}:${issue.loc.join('.')}`,
      source,
      severity: issue.severity,
      code: issue.code,
      message: issue.message,
      loc: issue.loc,
      start,
      end,
      exact,
    });
  });
}

/**
 * Every problem of a draft, in text order: a JSON syntax error, the validator's issues, and the
 * service's issues when they were reported for this very text (an edit makes them stale).
 */
export function problemsOf(
  text: string,
  analysis: DraftAnalysis,
  serverIssues: readonly BundleIssue[] | null,
): Problem[] {
  const out: Problem[] = [];
  if (analysis.kind === 'invalid-json') {
    const at = analysis.offset ?? 0;
    out.push(
      withPosition(text, {
        id: 'json:syntax',
        source: 'json',
        severity: 'error',
        code: 'invalid_json',
        message: `Not valid JSON: ${analysis.message}`,
        loc: [],
        start: at,
        end: Math.min(text.length, at + 1),
        exact: analysis.offset !== null,
      }),
    );
  }
  if (analysis.kind === 'parsed') out.push(...issueProblems(text, analysis.issues, 'validator'));
  if (serverIssues && serverIssues.length > 0) {
    // The service runs the same validator: show its issues only where they add something.
    const seen = new Set(out.map((p) => `${p.code}|${p.loc.join('.')}`));
    out.push(
      ...issueProblems(
        text,
        serverIssues.filter((i) => !seen.has(`${i.code}|${i.loc.join('.')}`)),
        'service',
      ),
    );
  }
  return out.sort(
    (a, b) => a.start - b.start || (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1),
  );
}

/** Problems that become editor markers (Monaco reports JSON syntax errors itself). */
export function markerProblems(problems: readonly Problem[]): Problem[] {
  return problems.filter((p) => p.source !== 'json');
}
