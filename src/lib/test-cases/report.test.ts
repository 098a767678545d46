import { describe, expect, it } from 'vitest';
import { describeMismatch } from './compare';
import { caseProblems, xmlEscape } from './report';
import type { CaseResult } from './run';

const passed: CaseResult = {
  source: 'a.case.json',
  name: 'passes',
  status: 'passed',
  turns: [],
  notes: [],
  ms: 12,
};
const failed: CaseResult = {
  source: 'b "<&>".case.json',
  name: 'fails <here> & "there"',
  status: 'failed',
  notes: ['ran with bundle 12345678, the case was recorded with abcdef12'],
  ms: 1500,
  turns: [
    {
      say: 'hi',
      expect: { decision: 'proceed' },
      observed: {
        reply: 'no',
        trace: { decision: 'block_with_explanation', rules_evaluated: [], tools_invoked: [], entities: {} },
      },
      mismatches: [{ kind: 'decision', subject: '', expected: 'proceed', actual: 'block_with_explanation' }],
    },
  ],
};
const errored: CaseResult = {
  ...passed,
  source: 'c.case.json',
  status: 'error',
  error: 'POST /x answered 401: bad key',
};

describe('reports', () => {
  it('escapes XML and replaces characters XML 1.0 forbids', () => {
    expect(xmlEscape(`a<b>&"c"'d'\u0001\u0007e\n`)).toBe(
      'a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;\uFFFD\uFFFDe\n',
    );
  });

  it('says what went wrong in a case, one line per failing expectation, and an error', () => {
    expect(caseProblems(failed)).toEqual([
      'turn 1 ("hi"): ' + describeMismatch(failed.turns[0]!.mismatches[0]!),
    ]);
    expect(caseProblems(errored)).toEqual(['error: POST /x answered 401: bad key']);
    expect(caseProblems(passed)).toEqual([]);
  });
});
