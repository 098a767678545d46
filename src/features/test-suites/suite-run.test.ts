import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../contract/bundle';
import type { CaseResult, TestCase } from '../../lib/test-cases';
import { casesForTarget, runCoverage } from './suite-run';
import type { SuiteEntry } from '../../domain/suites/suites-store';

const testCase: TestCase = {
  format: 'threadline-test-case',
  format_version: 1,
  name: 'A',
  agent_id: 'card-disputes',
  version_tag: 'v2',
  clock: '2025-03-15T12:00:00.000Z',
  turns: [{ say: 'hello', expect: { decision: 'proceed' } }],
};
const entries: SuiteEntry[] = [{ id: 'e1', file: 'a.case.json', testCase, addedAt: '' }];

describe('suite runs: targets', () => {
  it('drops the pin for the active version, replaces it for a version, keeps it for a draft', () => {
    expect(casesForTarget(entries, { kind: 'active' })[0]).toEqual({
      source: 'e1',
      testCase: { ...testCase, version_tag: undefined },
    });
    expect(casesForTarget(entries, { kind: 'active' })[0]!.testCase).not.toHaveProperty('version_tag');
    const pinned = casesForTarget(entries, { kind: 'version', versionId: 'v1-30-day-window' })[0]!.testCase;
    expect([pinned.version_id, pinned.version_tag]).toEqual(['v1-30-day-window', undefined]);
    expect(casesForTarget(entries, { kind: 'draft', bundle: {}, hash: 'a'.repeat(64) })[0]!.testCase).toBe(
      testCase,
    );
  });
});

describe('suite runs: coverage', () => {
  const bundle = {
    agent: { name: 'x' },
    rules: [{ code: 'R1' }, { code: 'R2' }],
    agent_tools: [{ code: 'T1' }],
  } as unknown as Bundle;
  const result = (
    status: CaseResult['status'],
    rules: { rule_id: string; result: string }[],
  ): CaseResult => ({
    source: 'e1',
    name: 'A',
    status,
    notes: [],
    ms: 1,
    turns: [
      {
        say: 'hello',
        expect: { decision: 'proceed' },
        mismatches: [],
        observed: {
          reply: '',
          trace: {
            decision: 'proceed',
            rules_evaluated: rules.map((r) => ({ ...r, reason: '' })),
            tools_invoked: [],
            entities: {},
          },
        },
      },
    ],
  });

  it('counts the turns that ran and says when some cases did not finish', () => {
    const done = runCoverage(bundle, [result('passed', [{ rule_id: 'R1', result: 'allowed' }])]);
    expect(done.coverage.neverEvaluated).toEqual(['R2']);
    expect(done.coverage.toolsNeverInvoked).toEqual(['T1']);
    expect(done.note).toBeNull();
    const partial = runCoverage(bundle, [result('error', [{ rule_id: 'R2', result: 'blocked' }])]);
    expect(partial.coverage.neverEvaluated).toEqual(['R1']);
    expect(partial.note).toBe('1 case did not run to the end: coverage counts only the turns that ran.');
  });
});
