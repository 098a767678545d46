import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../src/lib/test-cases';
import { suiteReporter, type RunTotals } from './reporters';

const passed: CaseResult = {
  source: 'a.case.json',
  name: 'passes',
  status: 'passed',
  turns: [],
  notes: [],
  ms: 12,
};
const errored: CaseResult = {
  source: 'b "<&>".case.json',
  name: 'fails <here> & "there"',
  status: 'error',
  turns: [],
  error: 'POST /x answered 401: bad key',
  notes: ['a note'],
  ms: 1500,
};
const totals = (cases: number, errors: number): RunTotals => ({
  summary: { cases, passed: cases - errors, failed: 0, errors, turns: 0, failedTurns: 0 },
  ms: 1512,
});

function written(name: 'json' | 'junit' | 'text', results: CaseResult[], suiteName = 'cards') {
  const reporter = suiteReporter(name, suiteName, results.length);
  const errors = results.filter((r) => r.status === 'error').length;
  return {
    reporter,
    text:
      reporter.head() +
      results.map((r) => reporter.case(r)).join('') +
      reporter.tail(totals(results.length, errors)),
  };
}

describe('streamed reports', () => {
  it('JSON: the pieces make one document, with no case too', () => {
    expect(JSON.parse(written('json', []).text)).toEqual({ results: [], summary: totals(0, 0).summary });
    const doc = JSON.parse(written('json', [passed, errored]).text) as { results: CaseResult[] };
    expect(doc.results).toEqual([passed, errored]);
  });

  it('JUnit: the final head has the totals, in exactly the bytes the first head took', () => {
    for (const name of ['cards', 'cartes bancaires — été']) {
      const { reporter, text } = written('junit', [passed, errored], name);
      const head = reporter.head();
      const final = reporter.finalHead!(totals(2, 1))!;
      expect(Buffer.byteLength(final)).toBe(Buffer.byteLength(head));
      expect(text.startsWith(head)).toBe(true);
      expect(final).toMatch(/<testsuites name="[^"]+" tests="2" failures="0" errors="1" time="1\.512" *>/);
      expect(final).toMatch(
        /<testsuite name="[^"]+" tests="2" skipped="0" failures="0" errors="1" time="1\.512" *>/,
      );
    }
  });

  it('JUnit: everything escaped, the error and its note in the case', () => {
    const { text } = written('junit', [errored]);
    expect(text).toContain(
      '<testcase name="fails &lt;here&gt; &amp; &quot;there&quot;" classname="b &quot;&lt;&amp;&gt;&quot;.case.json" time="1.500">',
    );
    expect(text).toContain('<error message="POST /x answered 401: bad key" type="error">');
    expect(text).toContain('<system-out>a note</system-out>');
  });

  it('text: a line per case, then the count line', () => {
    const lines = written('text', [passed, errored]).text.trimEnd().split('\n');
    expect(lines[0]).toBe('PASS  a.case.json  passes  (0 turns, 12 ms)');
    expect(lines[1]).toBe('ERROR  b "<&>".case.json  fails <here> & "there"  (0 turns, 1500 ms)');
    expect(lines.at(-1)).toBe('1 passed, 0 failed, 1 errors (2 cases, 0 turns, 0 failing turns)');
  });
});
