// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { idbSet } from '../../lib/idb-storage';
import type { TestCase } from '../../lib/test-cases';
import { caseFileName, uniqueFileName } from './file-names';
import {
  addCase,
  importCases,
  removeCase,
  replaceCase,
  suiteOf,
  useSuiteCases,
  useSuitesStore,
} from './suites-store';

const testCase = (name: string, decision = 'proceed'): TestCase => ({
  format: 'threadline-test-case',
  format_version: 1,
  name,
  agent_id: 'card-disputes',
  clock: '2025-03-15T12:00:00.000Z',
  turns: [{ say: 'hello', expect: { decision } }],
});

const suite = (agentId = 'card-disputes') => suiteOf(useSuitesStore.getState().suites, agentId);

describe('suites store', () => {
  beforeEach(() => useSuitesStore.setState({ suites: {} }));

  it('adds cases per agent with unique file names made from their names', () => {
    addCase('card-disputes', testCase('Dispute window'));
    addCase('card-disputes', testCase('Dispute window'));
    addCase('flight-changes', testCase('Cancel'));
    expect(suite().map((e) => e.file)).toEqual(['dispute-window.case.json', 'dispute-window-2.case.json']);
    expect(suite('flight-changes').map((e) => e.testCase.name)).toEqual(['Cancel']);
  });

  it('replaces, renames, removes and restores a case in place', () => {
    const a = addCase('card-disputes', testCase('A'));
    addCase('card-disputes', testCase('B'));
    replaceCase('card-disputes', a, testCase('A', 'block_with_explanation'));
    expect(suite()[0]!.testCase.turns[0]!.expect.decision).toBe('block_with_explanation');
    useSuitesStore.getState().renameCase('card-disputes', a, 'Window closed');
    expect(suite()[0]).toMatchObject({
      id: a,
      file: 'window-closed.case.json',
      testCase: { name: 'Window closed' },
    });
    const removed = removeCase('card-disputes', a);
    expect(suite().map((e) => e.testCase.name)).toEqual(['B']);
    useSuitesStore.getState().restoreCase('card-disputes', removed!.entry, removed!.index);
    expect(suite().map((e) => e.testCase.name)).toEqual(['Window closed', 'B']);
    expect(removeCase('card-disputes', 'nope')).toBeNull();
  });

  it('imports a folder: new files added, known file names replaced', () => {
    addCase('card-disputes', testCase('A'));
    const out = importCases('card-disputes', [
      { file: 'a.case.json', testCase: testCase('A again', 'request_information') },
      { file: 'b.case.json', testCase: testCase('B') },
    ]);
    expect(out).toEqual({ added: 1, replaced: 1 });
    expect(suite().map((e) => [e.file, e.testCase.name])).toEqual([
      ['a.case.json', 'A again'],
      ['b.case.json', 'B'],
    ]);
  });

  it('treats agent ids that name Object.prototype members as plain agents', () => {
    expect(suite('constructor')).toEqual([]);
    expect(suite('__proto__')).toEqual([]);
    addCase('__proto__', testCase('Odd agent'));
    expect(suite('__proto__').map((e) => e.testCase.name)).toEqual(['Odd agent']);
    expect(Object.getPrototypeOf(useSuitesStore.getState().suites)).toBeNull();
  });

  it('useSuiteCases returns the same array while the suite is unchanged', () => {
    addCase('card-disputes', testCase('A'));
    const { result, rerender } = renderHook(() => useSuiteCases('card-disputes'));
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
    expect(first.map((c) => c.name)).toEqual(['A']);
  });
});

describe('case file names', () => {
  it('slugs names and avoids taken ones', () => {
    expect(caseFileName('A charge from 10 days ago!')).toBe('a-charge-from-10-days-ago.case.json');
    expect(caseFileName('???')).toBe('case.case.json');
    expect(uniqueFileName('x.case.json', new Set(['x.case.json', 'x-2.case.json']))).toBe('x-3.case.json');
  });

  it('agents named like prototype members have suites like any other, also once read back from storage', async () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
    useSuitesStore.setState({ suites: {} });
    for (const agent of names) expect(suite(agent)).toEqual([]);
    for (const agent of names) addCase(agent, testCase(`case of ${agent}`));
    for (const agent of names) expect(suite(agent).map((e) => e.testCase.name)).toEqual([`case of ${agent}`]);

    const stored = JSON.parse(JSON.stringify({ suites: useSuitesStore.getState().suites })) as unknown;
    useSuitesStore.setState({ suites: {} });
    await idbSet('threadline:test-suites', { state: stored, version: 1 });
    await useSuitesStore.persist.rehydrate();
    const { suites } = useSuitesStore.getState();
    expect(Object.getPrototypeOf(suites)).toBeNull();
    expect(Object.keys(suites).sort()).toEqual([...names].sort());
    for (const agent of names) expect(suite(agent).map((e) => e.testCase.name)).toEqual([`case of ${agent}`]);
    expect(suite('valueOf')).toEqual([]);
  });
});
