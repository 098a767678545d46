import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations';
import { SqliteStore } from './sqlite-store';
import { parseTurnQuery } from './turn-search';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A data folder as the first schema left it: every branch holds copies (same interaction ids) of
 * the turns before its fork, then its own turns, numbered from 1.
 */
function firstSchemaFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'threadline-migrate-'));
  dirs.push(dir);
  const db = new Database(join(dir, 'threadline.db'));
  db.exec(MIGRATIONS[0]!);
  db.pragma('user_version = 1');
  const task = db.prepare(
    `INSERT INTO tasks VALUES (?, 'card-disputes', 'u1', 'web-widget', 'Card disputes', NULL, '[]', 'v2', 'v2',
      '2025-01-01T00:00:00.000Z', '{"step":0}', ?, ?, '2025-01-01T00:00:00.000Z')`,
  );
  const turn = db.prepare(
    `INSERT INTO turns VALUES (?, ?, ?, ?, ?, '2025-01-01T00:00:01.000Z', ?, '[]', '2025-01-01T00:00:02.000Z', ?, ?, NULL, 'v2')`,
  );
  const thread = (taskId: string, interactions: string[]) =>
    interactions.forEach((id, i) =>
      turn.run(
        taskId,
        i + 1,
        id,
        `user-${id}`,
        `message ${id}`,
        `reply ${id}`,
        JSON.stringify({ interaction_id: id, intent: 'x' }),
        JSON.stringify({ step: id }),
      ),
    );
  task.run('t1', null, null);
  thread('t1', ['i1', 'i2', 'i3', 'i4']);
  // b1: rerun of i3 on t1, then one more message. b2: rerun of j2 on b1. b3: rerun of i2 on b2.
  task.run('b1', 't1', 'i3');
  thread('b1', ['i1', 'i2', 'j1', 'j2']);
  task.run('b2', 'b1', 'j2');
  thread('b2', ['i1', 'i2', 'j1', 'k1']);
  task.run('b3', 'b2', 'i2');
  thread('b3', ['i1', 'm1']);
  // x1 claims to branch from t1 at i3, but its first turns are not t1's: it keeps them all.
  task.run('x1', 't1', 'i3');
  thread('x1', ['i1', 'zz', 'x1']);
  db.close();
  return dir;
}

const rowCount = (dir: string) => {
  const db = new Database(join(dir, 'threadline.db'), { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      rows: Object.fromEntries(
        (
          db.prepare('SELECT task_id, COUNT(*) AS n FROM turns GROUP BY task_id').all() as {
            task_id: string;
            n: number;
          }[]
        ).map((r) => [r.task_id, r.n]),
      ),
    };
  } finally {
    db.close();
  }
};

describe('migration to branches by reference', () => {
  it('drops the copied history of branches (of branches) and answers the same threads', async () => {
    const dir = firstSchemaFolder();
    const store = new SqliteStore({ dataDir: dir });
    try {
      const ids = async (taskId: string) => (await store.listTurns(taskId)).map((t) => t.interactionId);
      expect(await ids('t1')).toEqual(['i1', 'i2', 'i3', 'i4']);
      expect(await ids('b1')).toEqual(['i1', 'i2', 'j1', 'j2']);
      expect(await ids('b2')).toEqual(['i1', 'i2', 'j1', 'k1']);
      expect(await ids('b3')).toEqual(['i1', 'm1']);
      expect(await ids('x1')).toEqual(['i1', 'zz', 'x1']);
      // Only the own turns remain stored.
      expect(rowCount(dir)).toEqual({
        version: MIGRATIONS.length,
        rows: { t1: 4, b1: 2, b2: 1, b3: 1, x1: 3 },
      });

      // The inherited turns are the originals, found by interaction id, with their traces.
      const inherited = await store.getTurn('b2', 'j1');
      expect(inherited).toMatchObject({ taskId: 'b1', reply: { text: 'reply j1' }, state: { step: 'j1' } });
      expect(JSON.parse((await store.getTraceJson('b3', 'i1'))!.traces!)).toEqual({
        interaction_id: 'i1',
        intent: 'x',
      });
      expect(await store.getTurn('b3', 'j1')).toBeUndefined();
      expect(await store.countTurns('b2')).toBe(4);
      expect(await store.latestState('b2')).toEqual({ step: 'k1' });

      // The migrated threads carry on: a message, and a rerun of a migrated branch's turn.
      const k1 = (await store.getTurn('b2', 'k1'))!;
      await store.appendTurn('b2', () => ({ ...k1, interactionId: 'k2' }));
      expect(await ids('b2')).toEqual(['i1', 'i2', 'j1', 'k1', 'k2']);
      expect(await store.forkPoint('b2', 'j1')).toEqual({ turnsBefore: 2, stateBefore: { step: 'i2' } });
    } finally {
      await store.close();
    }
  });

  it('runs once: reopening the migrated folder changes nothing', async () => {
    const dir = firstSchemaFolder();
    await new SqliteStore({ dataDir: dir }).close();
    const migrated = rowCount(dir);
    const store = new SqliteStore({ dataDir: dir });
    expect((await store.listTurns('b2')).map((t) => t.interactionId)).toEqual(['i1', 'i2', 'j1', 'k1']);
    await store.close();
    expect(rowCount(dir)).toEqual(migrated);
  });
});

describe('migration to the thread list', () => {
  it('orders the tasks stored before it by their last reply, and new activity above them', async () => {
    const dir = firstSchemaFolder();
    const db = new Database(join(dir, 'threadline.db'));
    db.prepare(`UPDATE turns SET reply_created_at = '2025-02-01T00:00:00.000Z' WHERE task_id = 'b3'`).run();
    db.close();
    const store = new SqliteStore({ dataDir: dir });
    const listed = async () =>
      (await store.listTasks({ agents: [] }, null, null, 10)).tasks.map((t) => `${t.id}:${t.turnCount}`);
    try {
      // b3 replied last; the others tie on time and follow by id.
      expect(await listed()).toEqual(['b3:2', 'x1:3', 't1:4', 'b2:4', 'b1:4']);
      const k1 = (await store.getTurn('b2', 'k1'))!;
      await store.appendTurn('b2', () => ({ ...k1, interactionId: 'k2' }));
      expect((await listed()).slice(0, 2)).toEqual(['b2:5', 'b3:2']);
      expect((await store.listTasks({ agents: [] }, ['flight-changes'], null, 10)).tasks).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

/** A data folder as the schema before the index left it, with three turns stored out of time order. */
function beforeIndexFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'threadline-migrate-'));
  dirs.push(dir);
  const db = new Database(join(dir, 'threadline.db'));
  const before = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE turn_index ('));
  for (const m of MIGRATIONS.slice(0, before)) db.exec(m);
  db.pragma(`user_version = ${before}`);
  db.prepare(
    `INSERT INTO tasks (id, agent_id, user_id, origin, title, welcome_message, suggestions, version_id, version_tag,
      clock, initial_state, created_at) VALUES (?, ?, 'u1', 'web-widget', 'T', NULL, '[]', 'v2', 'v2',
      '2025-01-01T00:00:00.000Z', '{}', '2025-01-01T00:00:00.000Z')`,
  ).run('t1', 'card-disputes');
  const turn = db.prepare(`INSERT INTO turns VALUES ('t1', ?, ?, ?, ?, ?, ?, '[]', ?, ?, ?, NULL, 'v2')`);
  const trace = (id: string, decision: string, rule: string) =>
    JSON.stringify({
      interaction_id: id,
      intent: 'dispute_charge',
      decision,
      rules_evaluated: [
        { rule_id: rule, rule_type: 'policy', predicate: 'p', result: 'blocked', reason: 'r' },
      ],
      tools_considered: ['DISPUTE_CHARGE'],
      tools_invoked: [],
      entities: {},
    });
  // Stored in position order; their times say i2 came last.
  turn.run(
    1,
    'i1',
    'u-i1',
    'dispute coffee',
    '2025-01-01T00:00:01.000Z',
    'blocked',
    '2025-01-01T00:00:01.000Z',
    trace('i1', 'block_with_explanation', 'DISPUTE_WINDOW'),
    '{"values":{"transaction-amount":120}}',
  );
  turn.run(
    2,
    'i2',
    'u-i2',
    'second message',
    '2025-01-03T00:00:00.000Z',
    'ok',
    '2025-01-03T00:00:00.000Z',
    trace('i2', 'proceed', 'OTHER'),
    '{}',
  );
  // A trace that cannot be read: indexed by its texts and ids alone, never a failed start.
  turn.run(
    3,
    'i3',
    'u-i3',
    'garbled lemonade',
    '2025-01-02T00:00:00.000Z',
    'x',
    '2025-01-02T00:00:00.000Z',
    '{not json',
    '{}',
  );
  db.close();
  return dir;
}

/**
 * `beforeIndexFolder` with the index's migrations applied up to the first that holds `marker`
 * (not that one): its database, open, and that migration's number.
 */
function indexFolderBefore(marker: string): { dir: string; db: Database.Database; version: number } {
  const dir = beforeIndexFolder();
  const db = new Database(join(dir, 'threadline.db'));
  const first = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE turn_index ('));
  const version = MIGRATIONS.findIndex((m) => m.includes(marker));
  expect(version).toBeGreaterThan(first);
  for (const m of MIGRATIONS.slice(first, version)) db.exec(m);
  return { dir, db, version };
}

describe('migration to the turn index', () => {
  it('indexes every turn stored before it, oldest first, once', async () => {
    const dir = beforeIndexFolder();
    const store = new SqliteStore({ dataDir: dir });
    const search = async (params: Record<string, string[]>) =>
      (await store.searchTurns(parseTurnQuery(params), null, null, 10)).hits.map((h) => h.interactionId);
    try {
      expect(await search({})).toEqual(['i2', 'i3', 'i1']);
      expect(await search({ rule: ['DISPUTE_WINDOW:blocked'] })).toEqual(['i1']);
      expect(await search({ param: ['transaction-amount>100'] })).toEqual(['i1']);
      expect(await search({ q: ['lemonade'] })).toEqual(['i3']);
      await store.appendTurn('t1', () => ({
        ...turn4,
        taskId: 't1',
      }));
      expect((await search({}))[0]).toBe('i4');
    } finally {
      await store.close();
    }
    // Reopening indexes nothing twice.
    const again = new SqliteStore({ dataDir: dir });
    try {
      expect((await again.searchTurns(parseTurnQuery({}), null, null, 10)).hits.length).toBe(4);
    } finally {
      await again.close();
    }
  });
});

describe('migration to the present layout of the turn index', () => {
  it('lays the index out anew from the stored turns, whatever the first layout held', async () => {
    const { dir, db, version: layout } = indexFolderBefore('DROP TABLE turn_index_rules');
    // The first layout once indexed (its helper index dropped), with rows no stored turn supports.
    db.exec(`
      INSERT INTO turn_index (id, task_id, seq, interaction_id, agent_id, version_id, bundle_hash, user_id,
        created_at, day, intent, decision, deciding_rule)
      VALUES (1, 't1', 2, 'i2', 'card-disputes', 'v2', NULL, 'u1', '2025-01-03T00:00:00.000Z', '2025-01-03',
        'dispute_charge', 'block_with_explanation', 'STALE_RULE');
      INSERT INTO turn_index_rules VALUES ('STALE_RULE', 'blocked', 'policy', 1);
      INSERT INTO turn_index_values VALUES ('transaction-amount', '999', 999, NULL, 1);
      DROP INDEX turns_unindexed;
    `);
    db.pragma(`user_version = ${layout}`);
    db.close();

    const store = new SqliteStore({ dataDir: dir });
    const search = async (params: Record<string, string[]>) =>
      (await store.searchTurns(parseTurnQuery(params), null, null, 10)).hits.map((h) => h.interactionId);
    try {
      expect(await search({})).toEqual(['i2', 'i3', 'i1']);
      expect(await search({ rule: ['STALE_RULE'] })).toEqual([]);
      expect(await search({ rule: ['DISPUTE_WINDOW:blocked'] })).toEqual(['i1']);
      expect(await search({ rule: ['OTHER', 'DISPUTE_WINDOW:allowed'] })).toEqual(['i2']);
      expect(await search({ decision: ['block_with_explanation'] })).toEqual(['i1']);
      expect(await search({ param: ['transaction-amount>100'] })).toEqual(['i1']);
      expect(await search({ param: ['transaction-amount>500'] })).toEqual([]);
      expect(await search({ param: ['transaction-amount=120'] })).toEqual(['i1']);
      expect(await search({ q: ['lemonade'] })).toEqual(['i3']);
      const counts = await store.turnFacets(parseTurnQuery({}), null);
      expect(counts.rules).toEqual([
        { rule_id: 'DISPUTE_WINDOW', result: 'blocked', count: 1 },
        { rule_id: 'OTHER', result: 'blocked', count: 1 },
      ]);
      expect(counts.tools).toEqual([{ tool: 'DISPUTE_CHARGE', considered: 2, invoked: 0 }]);
    } finally {
      await store.close();
    }
    const after = new Database(join(dir, 'threadline.db'), { readonly: true });
    try {
      const tables = after
        .prepare(
          "SELECT name FROM sqlite_master WHERE name LIKE 'turn_index_%' AND type = 'table' ORDER BY name",
        )
        .all()
        .map((r) => (r as { name: string }).name);
      expect(tables).not.toContain('turn_index_rules');
      expect(tables).not.toContain('turn_index_values');
      expect(
        after.prepare("SELECT 1 FROM sqlite_master WHERE name = 'turns_unindexed'").get(),
      ).toBeUndefined();
    } finally {
      after.close();
    }
  });
});

describe('migration to whole entries pending', () => {
  it('moves the words the layout before left pending into the full-text index; turns keep their order', async () => {
    const { dir, db, version: entries } = indexFolderBefore('DROP TABLE turn_index_pending');
    // i1 indexed by a send of the layout before: its row written, its words still pending.
    db.exec(`
      INSERT INTO turn_index (id, task_id, seq, interaction_id, agent_id, version_id, bundle_hash, user_id,
        created_at, day, intent, decision, deciding_rule, rules, tools, numbers, dates)
      VALUES (1, 't1', 1, 'i1', 'card-disputes', 'v2', NULL, 'u1', '2025-01-01T00:00:01.000Z', '2025-01-01',
        'dispute_charge', 'block_with_explanation', 'DISPUTE_WINDOW', '[["DISPUTE_WINDOW","blocked"]]', '[]', '{}', '{}');
      INSERT INTO turn_index_pending (id, message, reply, terms) VALUES (1, 'dispute coffee', 'blocked', '');
    `);
    db.pragma(`user_version = ${entries}`);
    db.close();

    const store = new SqliteStore({ dataDir: dir });
    const search = async (params: Record<string, string[]>) =>
      (await store.searchTurns(parseTurnQuery(params), null, null, 10)).hits.map((h) => h.interactionId);
    try {
      expect(await search({ q: ['coffee'] })).toEqual(['i1']);
      expect(await search({})).toEqual(['i2', 'i3', 'i1']); // i2 and i3 indexed at the start, once
      await store.appendTurn('t1', () => turn4);
      expect(await search({})).toEqual(['i4', 'i2', 'i3', 'i1']);
      expect(await search({ q: ['later'] })).toEqual(['i4']);
    } finally {
      await store.close();
    }
  });
});

const turn4 = {
  taskId: 't1',
  interactionId: 'i4',
  userMessage: { id: 'u-i4', text: 'later', createdAt: '2025-01-04T00:00:00.000Z' },
  reply: { text: 'ok', suggestions: [], createdAt: '2025-01-04T00:00:00.000Z' },
  trace: {
    interaction_id: 'i4',
    intent: 'x',
    entities: {},
    parameters_extracted: [],
    rules_evaluated: [],
    tools_considered: [],
    tools_invoked: [],
    decision: 'proceed',
  },
  state: {},
  bundleHash: null,
  versionId: 'v2',
};
