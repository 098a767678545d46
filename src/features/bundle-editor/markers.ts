/**
 * Bundle issues → editor markers and problems-list entries. Each issue's `loc` (a path into the
 * bundle) is found in the text with the shared locator; the validator's issues and the service's
 * 422 issues go through the same mapping, so both underline the same spot. When a path does not
 * exist in the text (a missing field), the locator marks the nearest existing ancestor.
 *
 * Pure: no Monaco import (severities are plain strings; the editor maps them).
 */
import type { LintResponse, Witness } from '../../contract/analysis';
import { TOOL_RUN_FINDINGS } from '../../contract/tool-run-findings';
import type { BundleIssue } from '../../contract/api';
import { locateInJson, offsetToLineColumn } from '../../lib/bundle/locate';
import type { DraftAnalysis } from '../../domain/bundles/analysis';
import type { DraftLint } from '../../domain/bundles/lint-runner';

/** `lint`: the engine's findings; `lint-status`: why the lint said nothing (listed, never marked). */
export type ProblemSource = 'validator' | 'service' | 'json' | 'lint' | 'lint-status';

export interface Problem {
  /** Stable key for lists. */
  id: string;
  source: ProblemSource;
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  /** A lint finding's rule, tool and witness (where the engine shows it). */
  lint?: { rule?: string; tool?: string; witness?: Witness };
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

/** One problem about the lint itself, at the top of the document (listed, not marked). */
function lintStatus(text: string, severity: Problem['severity'], code: string, message: string): Problem {
  const { start, end } = rangeOf(text, []);
  return withPosition(text, {
    id: `lint-status:${code}`,
    source: 'lint-status',
    severity,
    code,
    message,
    loc: [],
    start,
    end,
    exact: false,
  });
}

/**
 * The lint answer to show for this text. While a newer text is linted, the last findings stay
 * where their paths are in this text; once the newer text's quick lint is in, its findings replace
 * them, but for the last findings of the tools' runs, which stay until the runs are decided again.
 */
function shownLint(lint: DraftLint): LintResponse | undefined {
  if (lint.kind === 'done') return lint.response;
  if (lint.kind !== 'linting') return undefined;
  if (!lint.quick) return lint.previous?.response;
  const quick = lint.quick.response;
  const runs = (lint.previous?.response.findings ?? []).filter((f) => TOOL_RUN_FINDINGS.includes(f.code));
  return { ...quick, findings: [...quick.findings, ...runs] };
}

/**
 * The lint's findings as problems at their `loc.path` (the validator's mapping), and one clear
 * problem when the lint could not run or left something unanalysed: never a silent blank.
 */
export function lintProblems(text: string, lint: DraftLint): Problem[] {
  if (lint.kind === 'failed')
    return [
      lintStatus(
        text,
        'warning',
        'lint_failed',
        `Lint could not run: ${lint.message}. The validator’s checks above still hold; edit the draft to lint it again.`,
      ),
    ];
  if (lint.kind === 'unavailable')
    return [
      lintStatus(
        text,
        'info',
        'lint_unavailable',
        'Lint could not run: this browser cannot start a Web Worker, and the engine never runs on the page itself.',
      ),
    ];
  const shown = shownLint(lint);
  if (!shown) return [];
  const out = shown.findings.map((f, i) => {
    const { start, end, exact } = rangeOf(text, f.loc.path);
    return withPosition(text, {
      id: `lint:${i}:${f.code}:${f.loc.path.join('.')}`,
      source: 'lint',
      severity: f.severity,
      code: f.code,
      message: f.message,
      loc: f.loc.path,
      lint: {
        ...(f.rule !== undefined ? { rule: f.rule } : {}),
        ...(f.tool !== undefined ? { tool: f.tool } : {}),
        ...(f.witness !== undefined ? { witness: f.witness } : {}),
      },
      start,
      end,
      exact,
    });
  });
  const left = shown.not_analysed;
  if (shown.capped || left.length > 0) {
    const what = left
      .slice(0, 3)
      .map((n) => [n.tool, n.rule, n.param].filter(Boolean).join(' · ') || n.reason)
      .join('; ');
    out.push(
      lintStatus(
        text,
        'info',
        'lint_partial',
        `Lint did not analyse everything${shown.capped ? ' (it stopped at its limits)' : ''}${what ? `: ${what}${left.length > 3 ? ` and ${left.length - 3} more` : ''}` : ''}. Findings may be missing there.`,
      ),
    );
  }
  return out;
}

const RANK: Record<Problem['severity'], number> = { error: 0, warning: 1, info: 2 };

/**
 * Every problem of a draft, in text order: a JSON syntax error, the validator's issues, the
 * service's issues when they were reported for this very text (an edit makes them stale) and the
 * lint's findings.
 */
export function problemsOf(
  text: string,
  analysis: DraftAnalysis,
  serverIssues: readonly BundleIssue[] | null,
  lint: DraftLint = { kind: 'off' },
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
  out.push(...lintProblems(text, lint));
  return out.sort((a, b) => a.start - b.start || RANK[a.severity] - RANK[b.severity]);
}

/** Problems that become editor markers (Monaco reports JSON syntax errors itself). */
export function markerProblems(problems: readonly Problem[]): Problem[] {
  return problems.filter((p) => p.source !== 'json' && p.source !== 'lint-status');
}

/** Problems that make a draft invalid: the lint's findings never block a send or a publish. */
export function blockingProblems(problems: readonly Problem[]): Problem[] {
  return problems.filter((p) => p.source !== 'lint' && p.source !== 'lint-status');
}
