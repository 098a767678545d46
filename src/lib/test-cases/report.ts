/**
 * The parts of a suite's reports (text for a terminal, JSON for tools, JUnit XML for CI systems)
 * that the CLI's streamed reporters (`cli/reporters.ts`) write a case at a time.
 */
import { plural } from '../format';
import { describeMismatch } from './compare';
import type { Coverage } from './coverage';
import type { CaseResult } from './run';

export type ReporterName = 'text' | 'json' | 'junit';
export const REPORTERS: readonly ReporterName[] = ['text', 'json', 'junit'];

/** What went wrong in a case, one line per failing expectation. */
export function caseProblems(r: CaseResult): string[] {
  const lines: string[] = [];
  for (const m of r.welcome?.mismatches ?? []) lines.push(`welcome: ${describeMismatch(m)}`);
  for (const [i, t] of r.turns.entries())
    for (const m of t.mismatches)
      lines.push(`turn ${i + 1} (${JSON.stringify(t.say)}): ${describeMismatch(m)}`);
  if (r.error !== undefined) lines.push(`error: ${r.error}`);
  return lines;
}

/** The coverage of a run as lines of text. */
export function coverageLines(c: Coverage): string[] {
  const line = (label: string, items: readonly string[]) =>
    `  ${label}: ${items.length ? items.join(', ') : 'none'}`;
  return [
    `coverage (${plural(c.rules.length, 'rule')}, ${plural(c.tools.length, 'tool')}):`,
    line('rules never evaluated', c.neverEvaluated),
    line('rules never blocked', c.neverBlocked),
    line('rules never allowed', c.neverAllowed),
    line('tools never invoked', c.toolsNeverInvoked),
    line('decisions never reached', c.decisionsNeverReached),
  ];
}

export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
