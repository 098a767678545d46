/**
 * The reports of `threadline test`, written as the suite runs: a head before the first case, one
 * piece per case as it finishes, a tail with the summary (and the coverage). Nothing here keeps a
 * case once its piece is written, so a report's memory does not grow with the suite.
 *
 * - text: one line per case (and its failing expectations), then the coverage and the count line;
 * - json: one JSON document, `{"results":[` then one case object per line, then `"summary"` and
 *   `"coverage"` after the last case;
 * - junit: JUnit XML, one `<testcase>` per case. The totals of `<testsuites>` and `<testsuite>`
 *   are known only at the end: the head leaves room for them in the opening tags (spaces, legal
 *   between attributes), which a report written to a file fills in when the run ends (`finalHead`);
 *   on a stream that cannot be rewritten the tags keep only `tests`, known from the start, and
 *   consumers count the failures from the `<testcase>` elements.
 */
import { plural } from '../src/lib/format';
import { type CaseResult, type Coverage, type ReporterName, type SuiteSummary } from '../src/lib/test-cases';
import { caseProblems, coverageLines, xmlEscape } from '../src/lib/test-cases/report';

export interface RunTotals {
  summary: SuiteSummary;
  /** The cases' durations added up. */
  ms: number;
  coverage?: Coverage;
}

export interface SuiteReporter {
  head(): string;
  case(result: CaseResult): string;
  tail(totals: RunTotals): string;
  /**
   * The head again, as long as `head()` in UTF-16 units and in bytes, with the totals in it; null
   * when the report has none to fill in.
   */
  finalHead?(totals: RunTotals): string | null;
}

/** The closing line of the text report (and the one-line summary printed beside a report file). */
export function countLine(s: SuiteSummary): string {
  return `${s.passed} passed, ${s.failed} failed, ${s.errors} errors (${plural(s.cases, 'case')}, ${plural(s.turns, 'turn')}, ${plural(s.failedTurns, 'failing turn')})`;
}

const textReporter: SuiteReporter = {
  head: () => '',
  case(r) {
    const mark = r.status === 'passed' ? 'PASS' : r.status === 'failed' ? 'FAIL' : 'ERROR';
    const lines = [
      `${mark}  ${r.source}  ${r.name}  (${plural(r.turns.length, 'turn')}, ${Math.round(r.ms)} ms)`,
    ];
    for (const p of caseProblems(r)) lines.push(`      ${p}`);
    for (const n of r.notes) lines.push(`      note: ${n}`);
    return `${lines.join('\n')}\n`;
  },
  tail({ summary, coverage }) {
    const lines = coverage ? ['', ...coverageLines(coverage)] : [];
    lines.push('', countLine(summary));
    return `${lines.join('\n')}\n`;
  },
};

function jsonReporter(): SuiteReporter {
  let first = true;
  return {
    head: () => '{"results":[\n',
    case(r) {
      const piece = `${first ? '' : ',\n'}${JSON.stringify(r)}`;
      first = false;
      return piece;
    },
    tail: ({ summary, coverage }) =>
      `\n],\n"summary":${JSON.stringify(summary)}${coverage ? `,\n"coverage":${JSON.stringify(coverage)}` : ''}\n}\n`,
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);
/** Room left in an opening tag for ` failures="…" errors="…" time="…"`. */
const TOTALS_ROOM = 60;

function junitReporter(suiteName: string, cases: number): SuiteReporter {
  const name = xmlEscape(suiteName);
  const totals = (t: RunTotals | null) => {
    const text = t
      ? ` failures="${t.summary.failed}" errors="${t.summary.errors}" time="${seconds(t.ms)}"`
      : '';
    return text.length > TOTALS_ROOM ? null : text.padEnd(TOTALS_ROOM);
  };
  const head = (room: string) =>
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="${name}" tests="${cases}"${room}>`,
      `  <testsuite name="${name}" tests="${cases}" skipped="0"${room}>`,
      '',
    ].join('\n');
  return {
    head: () => head(totals(null)!),
    case(r) {
      const open = `    <testcase name="${xmlEscape(r.name)}" classname="${xmlEscape(r.source)}" time="${seconds(r.ms)}"`;
      const body: string[] = [];
      const problems = caseProblems(r);
      if (r.status === 'failed')
        body.push(
          `      <failure message="${xmlEscape(problems[0] ?? 'an expectation failed')}" type="expectation">${xmlEscape(problems.join('\n'))}</failure>`,
        );
      else if (r.status === 'error')
        body.push(
          `      <error message="${xmlEscape(r.error ?? 'error')}" type="error">${xmlEscape(problems.join('\n'))}</error>`,
        );
      if (r.notes.length) body.push(`      <system-out>${xmlEscape(r.notes.join('\n'))}</system-out>`);
      return body.length ? `${open}>\n${body.join('\n')}\n    </testcase>\n` : `${open}/>\n`;
    },
    tail: ({ summary }) =>
      `    <system-out>${xmlEscape(countLine(summary))}</system-out>\n  </testsuite>\n</testsuites>\n`,
    finalHead(t) {
      const room = totals(t);
      return room === null ? null : head(room);
    },
  };
}

export function suiteReporter(name: ReporterName, suiteName: string, cases: number): SuiteReporter {
  switch (name) {
    case 'text':
      return textReporter;
    case 'json':
      return jsonReporter();
    case 'junit':
      return junitReporter(suiteName, cases);
  }
}
