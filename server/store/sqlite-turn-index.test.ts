import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { converse, exampleBundle } from '../agents/converse';
import { migrate } from './migrations';
import { TASK_COLUMNS, taskToRow } from './rows';
import { placeholders, SqliteSendWrites } from './sqlite-send-writes';
import { SqliteTurnIndex } from './sqlite-turn-index';
import { task as taskFixture } from './store-contract.fixture';
import { parseTurnQuery } from './turn-search';

const CLOCK = '2025-03-15T12:00:00Z';
const said = converse(exampleBundle('card-disputes'), CLOCK).say(
  'I want to dispute a charge of $120 at Coffee Corner from 10 days ago',
);

/** A migrated in-memory store with one task, and a way to store its next turn. */
function storeWithTask() {
  const db = new Database(':memory:');
  migrate(db);
  const task = taskFixture('task-1', { clock: CLOCK, createdAt: CLOCK });
  db.prepare(`INSERT INTO tasks (${TASK_COLUMNS}) VALUES (${placeholders(TASK_COLUMNS)})`).run(
    taskToRow(task),
  );
  const index = new SqliteTurnIndex(db);
  const writes = new SqliteSendWrites(db, index);
  let turns = 0;
  const changes = db.prepare('SELECT total_changes()').pluck();
  /** Stores the next turn; the rows its transaction wrote (FTS5's own included). */
  const append = (): number => {
    const n = turns + 1;
    const at = new Date(Date.parse(CLOCK) + n * 1000).toISOString();
    const before = changes.get() as number;
    const stored = writes.appendAt(task.id, turns, {
      taskId: task.id,
      interactionId: `msg-${n}`,
      userMessage: { id: `user-${n}`, text: `dispute charge number ${n}`, createdAt: at },
      reply: { text: said.reply, suggestions: said.suggestions, createdAt: at },
      trace: { ...said.trace, interaction_id: `msg-${n}` },
      state: said.state,
      bundleHash: null,
      versionId: 'v2',
    });
    if (!stored) throw new Error('the thread moved');
    turns = n;
    return (changes.get() as number) - before;
  };
  const found = async (q: string) => {
    index.catchUp(); // what the store has the writer do before a search
    return (await index.search(parseTurnQuery({ q: [q] }), null, null, 1000)).hits.length;
  };
  const count = (table: string) =>
    (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { db, index, writes, append, found, count };
}

describe('the SQLite turn index between sends', () => {
  it("writes a turn's entry in one plain row of its transaction, moved into the index later", async () => {
    const { append, found, count } = storeWithTask();
    expect(append()).toBe(append()); // the same rows written by each send
    expect(count('turn_index_pending')).toBe(2);
    expect(count('turn_index')).toBe(0);
    expect(count('turn_index_text')).toBe(0);
    expect(await found('charge')).toBe(2); // a search moves them first: never behind
    expect(count('turn_index_pending')).toBe(0);
    expect(count('turn_index')).toBe(2);
    expect(count('turn_index_text')).toBe(2);
  });

  it('keeps turns in the order they were stored, moved or pending, after the pending rows run out', async () => {
    const { db, index, append } = storeWithTask();
    append();
    append();
    index.catchUp(); // nothing pending: the next id follows the index's
    append();
    index.catchUp();
    append(); // one pending above three moved
    const ids = db.prepare(
      'SELECT id FROM turn_index_pending UNION ALL SELECT id FROM turn_index ORDER BY 1',
    );
    expect(ids.pluck().all()).toEqual([1, 2, 3, 4]);
    index.catchUp();
    const newestFirst = (await index.search(parseTurnQuery({}), null, null, 10)).hits;
    expect(newestFirst.map((h) => h.interactionId)).toEqual(['msg-4', 'msg-3', 'msg-2', 'msg-1']);
  });

  it('writes the same rows in every send, however many turns it holds: its full-text rows are written apart', () => {
    const { index, append } = storeWithTask();
    const written = Array.from({ length: 400 }, () => {
      const rows = append();
      index.catchUp(); // what the writer does between sends
      while (index.mergeStep());
      return rows;
    });
    // Writing the full-text row, or merging, in the send's transaction would write more rows in
    // some sends than in others (FTS5's segments and `automerge`).
    expect(new Set(written)).toEqual(new Set([written[0]]));
  });

  it('moves pending rows in bounded steps, oldest first, then merges until nothing is left, every turn found', async () => {
    const { index, append, found, count } = storeWithTask();
    for (let i = 0; i < 120; i += 1) append();
    const left: number[] = [];
    while (index.indexStep()) left.push(count('turn_index_pending'));
    expect(left).toEqual([70, 20, 0]); // 50 a step
    expect(index.indexStep()).toBe(false);
    for (let i = 0; i < 20; i += 1) {
      append();
      index.indexStep(); // sends one at a time: a segment each
    }
    let steps = 0;
    while (index.mergeStep()) steps += 1;
    expect(steps).toBeGreaterThan(0); // the moves left merging to do
    expect(index.mergeStep()).toBe(false);
    expect(await found('charge')).toBe(140);
    expect(await found('number')).toBe(140);
  });

  it('indexes and merges after a stored turn, one step per turn of the event loop, until nothing is left', async () => {
    const { index, writes, append, found, count } = storeWithTask();
    for (let i = 0; i < 120; i += 1) append();
    writes.indexWhileIdle();
    writes.indexWhileIdle(); // work under way goes on; no second one starts
    let turnsOfTheLoop = 0;
    // Each step runs in a turn of the event loop of its own: a write arriving meanwhile runs between steps.
    while (turnsOfTheLoop < 1000) {
      await new Promise((resolve) => setImmediate(resolve));
      turnsOfTheLoop += 1;
      if (!(writes as unknown as { indexing: boolean }).indexing) break;
    }
    expect(turnsOfTheLoop).toBeGreaterThan(3); // three moves, then merging
    expect(count('turn_index_pending')).toBe(0);
    expect(index.mergeStep()).toBe(false);
    expect(await found('charge')).toBe(120);
  });

  it('compares numbers and dates in rows of either layout: binary JSON now, text before', async () => {
    const { db, index, append } = storeWithTask();
    append();
    append();
    index.catchUp();
    const layout = db.prepare('SELECT typeof(numbers) AS n, typeof(dates) AS d FROM turn_index ORDER BY id');
    expect(layout.all()).toEqual([
      { n: 'blob', d: 'blob' },
      { n: 'blob', d: 'blob' },
    ]);
    // A row moved before this layout holds text: the same comparison reads it.
    db.exec('UPDATE turn_index SET numbers = json(numbers), dates = json(dates) WHERE id = 1');
    expect(layout.all()[0]).toEqual({ n: 'text', d: 'text' });
    const counted = (where: string[]) => index.count(parseTurnQuery({ where }), null);
    expect(await counted(['transaction-amount>100', 'transaction-amount<=120'])).toBe(2);
    expect(await counted(['transaction-amount>120'])).toBe(0);
    expect(await counted(['transaction-date>=2025-03-05', 'transaction-date<2025-03-06'])).toBe(2);
    expect(await counted(['transaction-date>2025-03-05'])).toBe(0);
  });
});
