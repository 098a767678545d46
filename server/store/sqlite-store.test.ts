import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite-store';
import type { TaskRecord, TurnRecord } from './store';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'threadline-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function task(id: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
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

function turn(taskId: string, n: number): TurnRecord {
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

describe('SqliteStore', () => {
  it('keeps tasks and turns in thread order across a close and reopen', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ dataDir: dir });
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3]) await store.appendTurn(turn('t1', n));
    await store.close();

    const reopened = new SqliteStore({ dataDir: dir });
    expect(await reopened.getTask('t1')).toEqual(task('t1'));
    const turns = await reopened.listTurns('t1');
    expect(turns.map((t) => t.interactionId)).toEqual(['i1', 'i2', 'i3']);
    expect(turns[1]).toEqual(turn('t1', 2));
    expect(await reopened.latestState('t1')).toEqual({ step: 3 });
    await reopened.close();
  });

  it('pages turns and counts them', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3, 4, 5]) await store.appendTurn(turn('t1', n));
    expect(await store.countTurns('t1')).toBe(5);
    const page = await store.listTurns('t1', { offset: 2, limit: 2 });
    expect(page.map((t) => t.interactionId)).toEqual(['i3', 'i4']);
    const traces = await store.listTraces('t1', { offset: 3, limit: 5 });
    expect(traces.map((t) => t.interaction_id)).toEqual(['i4', 'i5']);
    expect((await store.listTraces('t1')).map((t) => t.interaction_id)).toEqual([
      'i1',
      'i2',
      'i3',
      'i4',
      'i5',
    ]);
  });

  it('answers the initial state before any turn and undefined for an unknown task', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.createTask(task('t1'));
    expect(await store.latestState('t1')).toEqual({ step: 0 });
    expect(await store.latestState('nope')).toBeUndefined();
    expect(await store.getTurn('t1', 'i1')).toBeUndefined();
  });

  it('creates a branch holding copies of the history without touching the origin', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3]) await store.appendTurn(turn('t1', n));
    const history = await store.listTurns('t1', { offset: 0, limit: 1 });
    await store.createBranch(task('b1', { branchOf: { taskId: 't1', interactionId: 'i2' } }), history);

    expect((await store.getTask('b1'))?.branchOf).toEqual({ taskId: 't1', interactionId: 'i2' });
    expect((await store.listTurns('b1')).map((t) => [t.taskId, t.interactionId])).toEqual([['b1', 'i1']]);
    expect(await store.countTurns('t1')).toBe(3);
  });

  it('refuses an interaction id used twice in one task', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.createTask(task('t1'));
    await store.appendTurn(turn('t1', 1));
    await expect(store.appendTurn(turn('t1', 1))).rejects.toThrow();
    expect(await store.countTurns('t1')).toBe(1);
  });
});
