import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite-store';
import Database from 'better-sqlite3';
import { agentContract, storeContract, task, turn } from './store-contract.fixture';
import { parseTurnQuery } from './turn-search';
import { SqliteSendWrites } from './sqlite-send-writes';
import { BACKGROUND_NICENESS } from '../work/background-priority';
import { threadNiceness } from '../work/fixtures/pool-niceness.fixture';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'threadline-store-'));
  dirs.push(dir);
  return dir;
}
/** The turn rows stored in a data folder's database (through a connection of its own). */
function countRows(dir: string): number {
  const db = new Database(join(dir, 'threadline.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM turns').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SqliteStore', () => {
  describe('the Store contract', () => storeContract(async () => new SqliteStore({ dataDir: ':memory:' })));
  describe('the agents contract', () => agentContract(async () => new SqliteStore({ dataDir: ':memory:' })));

  it("does not read the thread's tip again when given the one the caller just read", async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.createTask(task('t1'));
    const tip = (await store.threadTip('t1'))!;
    const threadTip = store.threadTip.bind(store);
    let reads = 0;
    store.threadTip = (taskId) => {
      reads += 1;
      return threadTip(taskId);
    };
    await store.appendTurn('t1', () => turn('t1', 1), tip);
    expect(reads).toBe(0);
    await store.appendTurn('t1', () => turn('t1', 2));
    expect(reads).toBe(1);
  });

  it("keeps the state after a thread's last turn with its task, so a send never reads the turn's row for it", async () => {
    const dir = tempDir();
    const store = new SqliteStore({ dataDir: dir });
    await store.createTask(task('t1'));
    for (const n of [1, 2]) await store.appendTurn('t1', () => turn('t1', n));
    await store.createBranch(
      { ...task('b1'), branchOf: { taskId: 't1', interactionId: 'i1' } },
      turn('b1', 9),
    );
    await store.close();
    const edit = (sql: string) => {
      const db = new Database(join(dir, 'threadline.db'));
      db.prepare(sql).run();
      db.close();
    };
    const tipOf = async (taskId: string) => {
      const reopened = new SqliteStore({ dataDir: dir });
      try {
        return await reopened.threadTip(taskId);
      } finally {
        await reopened.close();
      }
    };
    expect(await tipOf('t1')).toEqual({ turns: 2, state: { step: 2 } });
    expect(await tipOf('b1')).toEqual({ turns: 1, state: { step: 9 } });
    // The turn's own copy is not what a send reads: damaged, the tip is still answered.
    edit(`UPDATE turns SET state = 'damaged' WHERE task_id = 't1' AND seq = 2`);
    expect(await tipOf('t1')).toEqual({ turns: 2, state: { step: 2 } });
    // A task stored before tips were kept (or whose tip is not its thread's end) reads the turn.
    edit(`UPDATE turns SET state = '{"step":2}' WHERE task_id = 't1' AND seq = 2`);
    edit(`UPDATE tasks SET tip_seq = NULL, tip_state = NULL WHERE id = 't1'`);
    expect(await tipOf('t1')).toEqual({ turns: 2, state: { step: 2 } });
    edit(`UPDATE tasks SET tip_seq = 1, tip_state = '{"step":1}' WHERE id = 't1'`);
    expect(await tipOf('t1')).toEqual({ turns: 2, state: { step: 2 } });
  });

  it.runIf(process.platform === 'linux')(
    'writes turns in a thread of its own behind the request loop, which keeps its priority',
    async () => {
      const before = threadNiceness();
      const store = new SqliteStore({ dataDir: tempDir() });
      await store.createTask(task('t1'));
      await store.appendTurn('t1', () => turn('t1', 1)); // stored by the writer thread
      const after = threadNiceness();
      await store.close();
      const started = [...after].filter(([tid]) => !before.has(tid));
      expect(started.filter(([, nice]) => nice === BACKGROUND_NICENESS).length).toBeGreaterThan(0);
      for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid)).toBe(nice);
    },
  );

  it('finds a turn the moment its send is answered, its entry still pending or left by an earlier process', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ dataDir: dir });
    await store.createTask(task('t1'));
    const found = async (s: SqliteStore, text: string) =>
      (await s.searchTurns(parseTurnQuery({ q: [text] }), null, null, 10)).hits.map((h) => h.interactionId);
    for (const n of [1, 2, 3]) {
      await store.appendTurn('t1', () => turn('t1', n));
      expect(await found(store, `message ${n}`)).toEqual([`i${n}`]); // in the writer thread's hands until asked
    }
    await store.close();
    // A process that stored a turn and stopped before moving its entry (as under kill -9).
    const db = new Database(join(dir, 'threadline.db'));
    expect(new SqliteSendWrites(db).appendAt('t1', 3, turn('t1', 4))).toBe(true);
    expect(db.prepare('SELECT COUNT(*) FROM turn_index_pending').pluck().get()).toBe(1);
    db.close();
    const reopened = new SqliteStore({ dataDir: dir });
    expect(await found(reopened, 'message 4')).toEqual(['i4']);
    await reopened.close();
  });

  it('keeps tasks and turns in thread order across a close and reopen', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ dataDir: dir });
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3]) await store.appendTurn('t1', () => turn('t1', n));
    await store.close();

    const reopened = new SqliteStore({ dataDir: dir });
    expect(await reopened.getTask('t1')).toEqual(task('t1'));
    const turns = await reopened.listTurns('t1');
    expect(turns.map((t) => t.interactionId)).toEqual(['i1', 'i2', 'i3']);
    expect(turns[1]).toEqual(turn('t1', 2));
    expect(await reopened.latestState('t1')).toEqual({ step: 3 });
    await reopened.close();
  });

  it('stores a branch as its own turns only, whatever the fork point', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ dataDir: dir });
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3]) await store.appendTurn('t1', () => turn('t1', n));
    for (const [b, at] of [
      ['b1', 'i1'],
      ['b2', 'i3'],
    ] as const) {
      const before = countRows(dir);
      await store.createBranch(task(b, { branchOf: { taskId: 't1', interactionId: at } }), turn(b, 20));
      expect(countRows(dir)).toBe(before + 1);
    }
    await store.close();
  });

  it('keeps the chain short when the same early turn is rerun on branch after branch', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ dataDir: dir });
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3]) await store.appendTurn('t1', () => turn('t1', n));
    let parent = 't1';
    for (let b = 1; b <= 30; b += 1) {
      await store.createBranch(task(`b${b}`, { branchOf: { taskId: parent, interactionId: 'i2' } }), {
        ...turn(`b${b}`, 2),
        state: { step: 100 + b },
      });
      parent = `b${b}`;
    }
    expect((await store.listTurns('b30')).map((t) => [t.taskId, t.interactionId])).toEqual([
      ['t1', 'i1'],
      ['b30', 'i2'],
    ]);
    expect(await store.latestState('b30')).toEqual({ step: 130 });
    await store.close();
    // Every branch reads its one inherited turn straight from t1, not through the 29 before it.
    const db = new Database(join(dir, 'threadline.db'), { readonly: true });
    const heirs = db.prepare("SELECT DISTINCT inherits_from AS task FROM tasks WHERE id LIKE 'b%'").all();
    db.close();
    expect(heirs).toEqual([{ task: 't1' }]);
  });
});
