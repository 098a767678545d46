import { describe, expect, it } from 'vitest';
import { jsonReport, junitReport, textReport, xmlEscape } from './report';
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

  it('writes JUnit XML with counts, a failure and an error, everything escaped', () => {
    const xml = junitReport([passed, failed, errored], 'cards');
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="cards" tests="3" failures="1" errors="1"/,
    );
    expect(xml).toContain('<testcase name="passes" classname="a.case.json" time="0.012"/>');
    expect(xml).toContain(
      '<testcase name="fails &lt;here&gt; &amp; &quot;there&quot;" classname="b &quot;&lt;&amp;&gt;&quot;.case.json" time="1.500">',
    );
    expect(xml).toContain(
      '<failure message="turn 1 (&quot;hi&quot;): decision: expected proceed, got block_with_explanation" type="expectation">',
    );
    expect(xml).toContain('<error message="POST /x answered 401: bad key" type="error">');
    expect(xml).toContain('<system-out>ran with bundle 12345678');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
  });

  it('writes a text report with a closing count line, and a JSON report with the summary', () => {
    const text = textReport([passed, failed, errored]);
    expect(text).toContain('FAIL  b "<&>".case.json');
    expect(text).toContain('turn 1 ("hi"): decision: expected proceed, got block_with_explanation');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      '1 passed, 1 failed, 1 errors (3 cases, 1 turn, 1 failing turn)',
    );
    expect(JSON.parse(jsonReport([passed, failed])).summary).toEqual({
      cases: 2,
      passed: 1,
      failed: 1,
      errors: 0,
      turns: 1,
      failedTurns: 1,
    });
  });
});
