/**
 * What every `Store` implementation must do, as tests: each implementation's test file calls
 * `storeContract` inside its own `describe` with a function that opens an empty store.
 */
import { expect, it, describe } from 'vitest';
import type { Trace } from '../../src/contract/trace';
import type { Store, TaskRecord, TurnRecord } from './store';

export function task(id: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    agentId: 'card-disputes',
    userId: 'u1',
    origin: 'web-widget',
    title: 'Card disputes',
    welcomeMessage: 'Hello',
    suggestions: ['Dispute a charge'],
    versionId: 'v2',
    versionTag: 'v2',
    clock: '2025-01-01T00:00:00.000Z',
    initialState: { step: 0 },
    branchOf: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function turn(taskId: string, n: number): TurnRecord {
  return {
    taskId,
    interactionId: `i${n}`,
    userMessage: { id: `u${n}`, text: `message ${n}`, createdAt: '2025-01-01T00:00:01.000Z' },
    reply: { text: `reply ${n}`, suggestions: [`s${n}`], createdAt: '2025-01-01T00:00:02.000Z' },
    trace: {
      interaction_id: `i${n}`,
      intent: 'x',
      entities: {},
      parameters_extracted: [],
      rules_evaluated: [],
      tools_considered: [],
      tools_invoked: [],
      decision: 'proceed',
    },
    state: { step: n },
    bundleHash: n % 2 ? null : `hash${n}`,
    versionId: 'v2',
  };
}

export function storeContract(open: () => Promise<Store>): void {
  it('pages turns and traces and counts them', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3, 4, 5]) await store.appendTurn('t1', () => turn('t1', n));
    expect(await store.countTurns('t1')).toBe(5);
    const page = await store.listTurns('t1', { offset: 2, limit: 2 });
    expect(page.map((t) => t.interactionId)).toEqual(['i3', 'i4']);
    const traces = await store.listTraceJson('t1', { offset: 3, limit: 5 });
    expect(traces?.total).toBe(5);
    expect(traces?.traces.map((t) => (JSON.parse(t) as Trace).interaction_id)).toEqual(['i4', 'i5']);
    expect(await store.listTraceJson('nope', { offset: 0, limit: 5 })).toBeUndefined();
  });

  it('answers the initial state before any turn and undefined for an unknown task', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    expect(await store.latestState('t1')).toEqual({ step: 0 });
    expect(await store.latestState('nope')).toBeUndefined();
    expect(await store.getTurn('t1', 'i1')).toBeUndefined();
  });

  it('renames a task, and says when there is no such task', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    expect(await store.renameTask('t1', 'Coffee Corner dispute')).toBe(true);
    expect((await store.getTask('t1'))?.title).toBe('Coffee Corner dispute');
    expect(await store.renameTask('nope', 'x')).toBe(false);
  });

  it('creates a branch that inherits the history before its fork', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3]) await store.appendTurn('t1', () => turn('t1', n));
    await store.createBranch(task('b1', { branchOf: { taskId: 't1', interactionId: 'i2' } }), turn('b1', 20));

    expect((await store.getTask('b1'))?.branchOf).toEqual({ taskId: 't1', interactionId: 'i2' });
    expect((await store.listTurns('b1')).map((t) => [t.taskId, t.interactionId])).toEqual([
      ['t1', 'i1'],
      ['b1', 'i20'],
    ]);
    expect(await store.countTurns('b1')).toBe(2);
    expect(await store.countTurns('t1')).toBe(3);
    await expect(
      store.createBranch(task('b2', { branchOf: { taskId: 't1', interactionId: 'nope' } }), turn('b2', 1)),
    ).rejects.toThrow(/nope/);
    expect(await store.getTask('b2')).toBeUndefined();
    await store.close();
  });

  describe('reads a branch of a branch of a branch through the chain', () => {
    // t1: i1..i6.  b1 = rerun of i4 on t1: i1 i2 i3 | j1 j2.
    // b2 = rerun of j2 on b1: i1 i2 i3 j1 | k1 k2.   b3 = rerun of k2 on b2: i1 i2 i3 j1 k1 | m1.
    // f1 = rerun of the first turn of b3: | n1.      l1 = rerun of the last turn of b3: i1 i2 i3 j1 k1 | p1.
    const ids = (turns: TurnRecord[]) => turns.map((t) => t.interactionId);
    const named = (taskId: string, interactionId: string, step: number): TurnRecord => ({
      ...turn(taskId, 0),
      interactionId,
      trace: { ...turn(taskId, 0).trace, interaction_id: interactionId },
      state: { step },
    });
    async function chain() {
      const store = await open();
      await store.createTask(task('t1'));
      for (const n of [1, 2, 3, 4, 5, 6]) await store.appendTurn('t1', () => turn('t1', n));
      const branch = async (id: string, from: string, at: string, own: [string, number][]) => {
        await store.createBranch(
          task(id, { branchOf: { taskId: from, interactionId: at } }),
          named(id, own[0]![0], own[0]![1]),
        );
        for (const [interactionId, step] of own.slice(1))
          await store.appendTurn(id, () => named(id, interactionId, step));
      };
      await branch('b1', 't1', 'i4', [
        ['j1', 41],
        ['j2', 42],
      ]);
      await branch('b2', 'b1', 'j2', [
        ['k1', 51],
        ['k2', 52],
      ]);
      await branch('b3', 'b2', 'k2', [['m1', 61]]);
      await branch('f1', 'b3', 'i1', [['n1', 71]]);
      await branch('l1', 'b3', 'm1', [['p1', 81]]);
      return store;
    }

    it('lists, counts and pages each thread, across the fork boundaries', async () => {
      const store = await chain();
      expect(ids(await store.listTurns('b1'))).toEqual(['i1', 'i2', 'i3', 'j1', 'j2']);
      expect(ids(await store.listTurns('b2'))).toEqual(['i1', 'i2', 'i3', 'j1', 'k1', 'k2']);
      expect(ids(await store.listTurns('b3'))).toEqual(['i1', 'i2', 'i3', 'j1', 'k1', 'm1']);
      expect(ids(await store.listTurns('f1'))).toEqual(['n1']);
      expect(ids(await store.listTurns('l1'))).toEqual(['i1', 'i2', 'i3', 'j1', 'k1', 'p1']);
      expect((await store.listTurns('b3')).map((t) => t.taskId)).toEqual([
        't1',
        't1',
        't1',
        'b1',
        'b2',
        'b3',
      ]);
      expect(await store.countTurns('b3')).toBe(6);
      expect(await store.countTurns('f1')).toBe(1);
      expect(ids(await store.listTurns('b3', { offset: 2, limit: 3 }))).toEqual(['i3', 'j1', 'k1']);
      expect(ids(await store.listTurns('b3', { offset: 4, limit: 50 }))).toEqual(['k1', 'm1']);
      const page = await store.listTraceJson('b3', { offset: 1, limit: 4 });
      expect(page?.total).toBe(6);
      expect(page?.traces.map((t) => (JSON.parse(t) as Trace).interaction_id)).toEqual([
        'i2',
        'i3',
        'j1',
        'k1',
      ]);
      // The origins are untouched, and their later turns do not reach their branches.
      expect(ids(await store.listTurns('t1'))).toEqual(['i1', 'i2', 'i3', 'i4', 'i5', 'i6']);
      await store.appendTurn('t1', () => turn('t1', 7));
      expect(await store.countTurns('b1')).toBe(5);
      expect(ids(await store.listTurns('b1', { offset: 3, limit: 10 }))).toEqual(['j1', 'j2']);
    });

    it('finds a turn and its trace by interaction id in inherited history, and only in the thread', async () => {
      const store = await chain();
      expect((await store.getTurn('b3', 'i2'))?.taskId).toBe('t1');
      expect((await store.getTurn('b3', 'j1'))?.state).toEqual({ step: 41 });
      const trace = await store.getTraceJson('b3', 'k1');
      expect(JSON.parse(trace!.traces!)).toMatchObject({ interaction_id: 'k1' });
      expect(trace?.agentId).toBe('card-disputes');
      // Turns of an ancestor after the fork, and the regenerated ones, are not in the thread.
      for (const missing of ['i4', 'i6', 'j2', 'k2', 'n1'])
        expect(await store.getTurn('b3', missing)).toBeUndefined();
      expect(await store.getTraceJson('b3', 'i5')).toEqual({ agentId: 'card-disputes', traces: null });
      expect(await store.getTraceJson('nope', 'i1')).toBeUndefined();
    });

    it('forks at the first and the last turn with the state before them', async () => {
      const store = await chain();
      expect(await store.forkPoint('b3', 'i1')).toEqual({ turnsBefore: 0, stateBefore: { step: 0 } });
      expect(await store.forkPoint('b3', 'm1')).toEqual({ turnsBefore: 5, stateBefore: { step: 51 } });
      expect(await store.forkPoint('b3', 'j1')).toEqual({ turnsBefore: 3, stateBefore: { step: 3 } });
      expect(await store.forkPoint('b3', 'i4')).toBeUndefined();
      expect(await store.latestState('b3')).toEqual({ step: 61 });
      expect(await store.latestState('l1')).toEqual({ step: 81 });
      expect(await store.latestState('f1')).toEqual({ step: 71 });
    });
  });

  it('appends each turn on the state the previous one left, and nothing when the turn fails', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    const seen: unknown[] = [];
    for (const n of [1, 2]) {
      const stored = await store.appendTurn('t1', (before) => {
        seen.push(before);
        return turn('other-task', n);
      });
      expect(stored.taskId).toBe('t1');
    }
    expect(seen).toEqual([{ step: 0 }, { step: 1 }]);
    await expect(
      store.appendTurn('t1', () => {
        throw new Error('engine failed');
      }),
    ).rejects.toThrow('engine failed');
    expect(await store.countTurns('t1')).toBe(2);
    await expect(store.appendTurn('nope', () => turn('nope', 1))).rejects.toThrow(/nope/);
  });

  it('refuses an interaction id used twice in one task', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    await store.appendTurn('t1', () => turn('t1', 1));
    await expect(store.appendTurn('t1', () => turn('t1', 1))).rejects.toThrow();
    expect(await store.countTurns('t1')).toBe(1);
  });
}
