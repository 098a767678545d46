/** Suite results as text for a terminal, JSON for tools, and JUnit XML for CI systems. */
import { plural } from '../format';
import { describeMismatch } from './compare';
import type { Coverage } from './coverage';
import { summarize, type CaseResult } from './run';

export type ReporterName = 'text' | 'json' | 'junit';
export const REPORTERS: readonly ReporterName[] = ['text', 'json', 'junit'];

/** What went wrong in a case, one line per failing expectation. */
function caseProblems(r: CaseResult): string[] {
  const lines: string[] = [];
  for (const m of r.welcome?.mismatches ?? []) lines.push(`welcome: ${describeMismatch(m)}`);
  for (const [i, t] of r.turns.entries())
    for (const m of t.mismatches)
      lines.push(`turn ${i + 1} (${JSON.stringify(t.say)}): ${describeMismatch(m)}`);
  if (r.error !== undefined) lines.push(`error: ${r.error}`);
  return lines;
}

function coverageLines(c: Coverage): string[] {
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

export function textReport(results: readonly CaseResult[], coverage?: Coverage): string {
  const lines: string[] = [];
  for (const r of results) {
    const mark = r.status === 'passed' ? 'PASS' : r.status === 'failed' ? 'FAIL' : 'ERROR';
    lines.push(
      `${mark}  ${r.source}  ${r.name}  (${plural(r.turns.length, 'turn')}, ${Math.round(r.ms)} ms)`,
    );
    for (const p of caseProblems(r)) lines.push(`      ${p}`);
    for (const n of r.notes) lines.push(`      note: ${n}`);
  }
  const s = summarize(results);
  if (coverage) lines.push('', ...coverageLines(coverage));
  lines.push(
    '',
    `${s.passed} passed, ${s.failed} failed, ${s.errors} errors (${plural(s.cases, 'case')}, ${plural(s.turns, 'turn')}, ${plural(s.failedTurns, 'failing turn')})`,
  );
  return `${lines.join('\n')}\n`;
}

export function jsonReport(results: readonly CaseResult[], coverage?: Coverage): string {
  return `${JSON.stringify({ summary: summarize(results), results, ...(coverage ? { coverage } : {}) }, null, 2)}\n`;
}

/** Text safe in XML content and attribute values: escaped, and without characters XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** JUnit XML: one testsuite, one testcase per case (classname: the case's file), failures and errors. */
export function junitReport(results: readonly CaseResult[], suiteName: string): string {
  const s = summarize(results);
  const total = results.reduce((sum, r) => sum + r.ms, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suiteName)}" tests="${s.cases}" failures="${s.failed}" errors="${s.errors}" time="${seconds(total)}">`,
    `  <testsuite name="${xmlEscape(suiteName)}" tests="${s.cases}" failures="${s.failed}" errors="${s.errors}" skipped="0" time="${seconds(total)}">`,
  ];
  for (const r of results) {
    const open = `    <testcase name="${xmlEscape(r.name)}" classname="${xmlEscape(r.source)}" time="${seconds(r.ms)}"`;
    const body: string[] = [];
    const problems = caseProblems(r);
    if (r.status === 'failed') {
      const first = problems[0] ?? 'an expectation failed';
      body.push(
        `      <failure message="${xmlEscape(first)}" type="expectation">${xmlEscape(problems.join('\n'))}</failure>`,
      );
    } else if (r.status === 'error') {
      body.push(
        `      <error message="${xmlEscape(r.error ?? 'error')}" type="error">${xmlEscape(problems.join('\n'))}</error>`,
      );
    }
    if (r.notes.length) body.push(`      <system-out>${xmlEscape(r.notes.join('\n'))}</system-out>`);
    out.push(body.length ? `${open}>\n${body.join('\n')}\n    </testcase>` : `${open}/>`);
  }
  out.push('  </testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
}
