import { describe, expect, it } from 'vitest';
import type { ImpactResponse, TurnOutcome } from '../../contract/impact';
import type { TestCase } from '../../lib/test-cases';
import { describeDifference, impactCases, impactSummary, type SavedCase } from './impact-model';

const testCase = (name: string, turns: TestCase['turns'], extra: Partial<TestCase> = {}): TestCase => ({
  format: 'threadline-test-case',
  format_version: 1,
  name,
  agent_id: 'card-disputes',
  clock: '2025-03-15T12:00:00.000Z',
  turns,
  ...extra,
});

const outcome = (decision: string, rules: Record<string, string> = {}, reply = ''): TurnOutcome => ({
  reply,
  trace: {
    decision,
    rules_evaluated: Object.entries(rules).map(([rule_id, result]) => ({ rule_id, result, reason: '' })),
    tools_invoked: [],
    entities: {},
  },
});

const saved: SavedCase[] = [
  {
    id: 'a',
    file: 'window.case.json',
    testCase: testCase(
      'outside the window',
      [
        { say: 'hi', expect: { decision: 'proceed' } },
        {
          say: 'from 10 days ago',
          expect: { decision: 'block_with_explanation', rules: { WINDOW: 'blocked' } },
        },
      ],
      { user_id: 'u-1' },
    ),
  },
  {
    id: 'b',
    file: 'other.case.json',
    testCase: testCase('expected to fail already', [{ say: 'x', expect: { decision: 'proceed' } }]),
  },
];

const answer = (cases: ImpactResponse['cases']): ImpactResponse => ({
  agent_id: 'card-disputes',
  baseline: { version_id: 'v2-8-day-window', version_tag: 'v2', bundle_hash: 'h1' },
  draft: { bundle_hash: 'h2' },
  total: cases.length,
  changed: cases.filter((c) => c.status === 'changed').length,
  errors: cases.filter((c) => c.status === 'error').length,
  cases,
});

describe('impactCases', () => {
  it("sends each case's id, clock, user and messages, never its expectations", () => {
    expect(impactCases(saved)).toEqual([
      { id: 'a', clock: '2025-03-15T12:00:00.000Z', user_id: 'u-1', messages: ['hi', 'from 10 days ago'] },
      { id: 'b', clock: '2025-03-15T12:00:00.000Z', messages: ['x'] },
    ]);
  });
});

describe('impactSummary', () => {
  it('gives one row per changed turn, 1-based, with the decisions and whether it now fails', () => {
    const s = impactSummary(
      saved,
      answer([
        {
          id: 'a',
          status: 'changed',
          turns_run: 2,
          changes: [
            {
              turn: 1,
              message: 'from 10 days ago',
              differences: [
                { kind: 'decision', subject: '', before: 'block_with_explanation', after: 'proceed' },
                { kind: 'rule', subject: 'WINDOW', before: 'blocked', after: 'allowed' },
              ],
              before: outcome('block_with_explanation', { WINDOW: 'blocked' }),
              after: outcome('proceed', { WINDOW: 'allowed' }),
            },
          ],
        },
        { id: 'b', status: 'same', turns_run: 1, changes: [] },
      ]),
    );
    expect(s).toMatchObject({ total: 2, changed: 1, baseline: 'v2', problems: [] });
    expect(s.rows).toHaveLength(1);
    const [row] = s.rows;
    expect(row).toMatchObject({
      caseId: 'a',
      caseName: 'outside the window',
      turn: 2,
      decisionBefore: 'block_with_explanation',
      decisionAfter: 'proceed',
      verdict: 'now fails',
    });
    expect(row!.mismatches.map((m) => m.kind)).toEqual(['decision', 'rule']);
  });

  it('tells a turn that now passes from one that still fails or keeps passing', () => {
    const change = (before: TurnOutcome, after: TurnOutcome) => ({
      id: 'b',
      status: 'changed' as const,
      turns_run: 1,
      changes: [{ turn: 0, message: 'x', differences: [], before, after }],
    });
    const verdict = (before: TurnOutcome, after: TurnOutcome) =>
      impactSummary(saved, answer([change(before, after)])).rows[0]!.verdict;
    expect(verdict(outcome('request_information'), outcome('proceed'))).toBe('now passes');
    expect(verdict(outcome('request_information'), outcome('block_with_explanation'))).toBe('still fails');
    expect(verdict(outcome('proceed', { A: 'allowed' }), outcome('proceed', { A: 'blocked' }))).toBe(
      'passes',
    );
  });

  it('says which turn of which case could not run, and with which bundle', () => {
    const s = impactSummary(
      saved,
      answer([
        {
          id: 'a',
          status: 'error',
          turns_run: 0,
          changes: [],
          error: { side: 'draft', turn: 0, message: 'too complex' },
        },
      ]),
    );
    expect(s.problems).toEqual([
      {
        caseId: 'a',
        caseName: 'outside the window',
        text: 'Turn 1 could not run with the draft: too complex',
      },
    ]);
  });

  it('leaves out cases the answer names but the suite no longer holds', () => {
    const s = impactSummary(saved, answer([{ id: 'gone', status: 'changed', turns_run: 1, changes: [] }]));
    expect(s.rows).toEqual([]);
  });
});

describe('describeDifference', () => {
  it('reads as before → after', () => {
    expect(describeDifference({ kind: 'rule', subject: 'W', before: 'blocked', after: 'allowed' })).toBe(
      'rule W: blocked → allowed',
    );
    expect(describeDifference({ kind: 'decision', subject: '', before: 'a', after: 'b' })).toBe(
      'decision: a → b',
    );
  });
});
