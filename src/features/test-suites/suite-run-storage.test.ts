// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import type { SuiteRun } from './suite-run';
import { loadFinishedRuns, loadRunTarget, saveFinishedRun, saveRunTarget } from './suite-run-storage';

const run = (over: Partial<SuiteRun> = {}): SuiteRun => ({
  id: 1,
  agentId: 'card-disputes',
  target: 'the active version',
  status: 'done',
  total: 1,
  done: 1,
  entryIds: ['e1'],
  results: new Map([['e1', { source: 'e1', name: 'A case', status: 'passed', turns: [], notes: [], ms: 3 }]]),
  coverage: null,
  coverageNote: null,
  startedAt: 1,
  finishedAt: 2,
  ...over,
});

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('what the Tests tab keeps across a reload', () => {
  it('keeps a finished run with its results, not a running one', () => {
    saveFinishedRun(run());
    saveFinishedRun(run({ agentId: 'flight-changes', status: 'running' }));
    const loaded = loadFinishedRuns();
    expect([...loaded.keys()]).toEqual(['card-disputes']);
    expect(loaded.get('card-disputes')?.results.get('e1')).toMatchObject({
      name: 'A case',
      status: 'passed',
    });
  });

  it('forgets a damaged entry', () => {
    sessionStorage.setItem('threadline:suite-run:x', '{not json');
    expect(loadFinishedRuns().size).toBe(0);
  });

  it('keeps the Run against choice per agent, the active version by default', () => {
    expect(loadRunTarget('card-disputes')).toEqual({ kind: 'active', versionId: '' });
    saveRunTarget('card-disputes', { kind: 'version', versionId: 'v1' });
    expect(loadRunTarget('card-disputes')).toEqual({ kind: 'version', versionId: 'v1' });
    expect(loadRunTarget('flight-changes')).toEqual({ kind: 'active', versionId: '' });
  });
});
