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
  const found = async (q: string) =>
    (await index.search(parseTurnQuery({ q: [q] }), null, null, 1000)).hits.length;
  return { db, index, writes, append, found };
}

describe('the SQLite turn index between sends', () => {
  it('writes the same rows in every send, however many turns it holds: its segments are merged apart', () => {
    const { index, append } = storeWithTask();
    const written = Array.from({ length: 400 }, () => {
      const rows = append();
      while (index.mergeStep()); // what the writer does between sends
      return rows;
    });
    // Merging in the send's transaction would rewrite earlier segments in some sends (FTS5's
    // `automerge`): those sends would write more rows than the others.
    expect(new Set(written)).toEqual(new Set([written[0]]));
  });

  it('merges what sends left in bounded steps, until nothing is left, every turn still found', async () => {
    const { index, append, found } = storeWithTask();
    for (let i = 0; i < 120; i += 1) append();
    let steps = 0;
    while (index.mergeStep()) steps += 1;
    expect(steps).toBeGreaterThan(0); // the sends left merging to do
    expect(index.mergeStep()).toBe(false);
    expect(await found('charge')).toBe(120);
    expect(await found('number')).toBe(120);
  });

  it('merges after a stored turn, one step per turn of the event loop, until nothing is left', async () => {
    const { index, writes, append, found } = storeWithTask();
    for (let i = 0; i < 120; i += 1) append();
    writes.mergeWhileIdle();
    writes.mergeWhileIdle(); // a merge under way goes on; no second one starts
    let turnsOfTheLoop = 0;
    // Each step runs in a turn of the event loop of its own: a write arriving meanwhile runs between steps.
    while (turnsOfTheLoop < 1000) {
      await new Promise((resolve) => setImmediate(resolve));
      turnsOfTheLoop += 1;
      if (!(writes as unknown as { merging: boolean }).merging) break;
    }
    expect(turnsOfTheLoop).toBeGreaterThan(1);
    expect(index.mergeStep()).toBe(false);
    expect(await found('charge')).toBe(120);
  });
});
