/**
 * The turn index on a data folder (or database) made before the index existed, or before its
 * present layout: real turns are stored, the index's migrations are undone behind the service's
 * back (its tables dropped or put back in their first layout, the schema version set back), and
 * the service started again on the same data must index every stored turn, once, so that
 * searches and counts answer what they answered before, and go on indexing new turns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnFacets, TurnHit, TurnSearchPage } from '../../src/contract/api';
import { MIGRATIONS } from '../../server/store/migrations';
import { POSTGRES_MIGRATIONS } from '../../server/store/postgres-migrations';
import { call, createTask, rerun, runSql, sendMessage, startService, type Service } from './helpers';

let service: Service;

const search = (query: string) => call<TurnSearchPage>(service, 'GET', `/reference/v1/turns${query}`);
const facets = async (query: string) =>
  (await call<TurnFacets>(service, 'GET', `/reference/v1/turns/facets${query}`)).body;

/** Every hit of a search, following the cursor. */
async function everything(query: string): Promise<TurnHit[]> {
  const out: TurnHit[] = [];
  let cursor: string | null = null;
  do {
    const reply: { status: number; body: TurnSearchPage } = await search(
      `${query}${query ? '&' : '?'}limit=3${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(reply.status).toBe(200);
    out.push(...reply.body.items);
    cursor = reply.body.next_cursor;
  } while (cursor);
  return out;
}

const QUERIES = [
  '',
  '?rule=DISPUTE_WINDOW:blocked',
  '?tool=DISPUTE_CHARGE:invoked',
  '?decision=request_information',
  '?param=transaction-amount>100',
  '?q=coffee corner',
  '?agent=flight-changes',
];

/**
 * The index's migrations undone: its tables gone, the later thread-list column too, and the schema
 * back to the version before them.
 */
async function withoutTurnIndex(s: Service) {
  await runSql(s, 'DROP INDEX tasks_activity');
  await runSql(s, 'ALTER TABLE tasks DROP COLUMN activity');
  if (s.storeKind === 'postgres') {
    await runSql(s, 'DROP SEQUENCE tasks_activity_seq');
    const version = POSTGRES_MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE turn_index ('));
    await runSql(s, 'DROP TABLE turn_index');
    await runSql(s, 'DELETE FROM threadline_schema WHERE version > $1', [version]);
    expect(version).toBeGreaterThan(0);
    return;
  }
  const version = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE turn_index ('));
  for (const table of ['turn_index_text', 'turn_index']) await runSql(s, `DROP TABLE ${table}`);
  await withoutLaterColumns(s);
  await runSql(s, `PRAGMA user_version = ${version}`);
}

/** What later SQLite migrations added taken out again, as a data folder of an earlier version has none. */
async function withoutLaterColumns(s: Service) {
  for (const column of ['tip_seq', 'tip_state']) await runSql(s, `ALTER TABLE tasks DROP COLUMN ${column}`);
  await runSql(s, 'DROP TABLE turn_index_pending');
}

/**
 * The index back in its first layout (a row per rule, tool and value), as a data folder of the
 * version before the present layout holds it once its turns are indexed: the present layout's
 * migration undone (with those after it).
 */
async function inFirstLayout(s: Service) {
  const migrations = s.storeKind === 'postgres' ? POSTGRES_MIGRATIONS : MIGRATIONS;
  const first = migrations.findIndex((m) => m.includes('CREATE TABLE turn_index ('));
  const last = migrations.findIndex((m) => m.includes('DROP TABLE turn_index_rules'));
  expect(last).toBeGreaterThan(first);
  if (s.storeKind === 'postgres') {
    await runSql(s, 'DROP TABLE turn_index');
    await runSql(s, migrations[first]!);
    await runSql(s, migrations[first + 1]!);
    await runSql(s, 'DELETE FROM threadline_schema WHERE version > $1', [last]);
    return;
  }
  for (const table of ['turn_index_text', 'turn_index']) await runSql(s, `DROP TABLE ${table}`);
  await runSql(s, migrations[first]!);
  await runSql(s, migrations[first + 1]!);
  await runSql(s, 'DROP INDEX turns_unindexed');
  await withoutLaterColumns(s);
  await runSql(s, `PRAGMA user_version = ${last}`);
}

const keyOf = (h: TurnHit) => `${h.task_id}#${h.turn}`;

describe.each([
  ['data stored before the turn index', withoutTurnIndex],
  ['data indexed in the first layout of the index', inFirstLayout],
])('starting on %s', (_, undo) => {
  const before = new Map<string, { hits: TurnHit[]; facets: TurnFacets }>();

  beforeAll(async () => {
    service = await startService();
    const blocked = (await createTask(service)).body.id;
    const first = await sendMessage(
      service,
      blocked,
      'I want to dispute a charge of $120 at Coffee Corner from 10 days ago',
    );
    const filed = (await createTask(service, { version_tag: 'v1' })).body.id;
    for (const text of [
      'I want to dispute a charge of $120 at Coffee Corner from 10 days ago',
      'It was a duplicate charge',
      'jane@example.com',
      'Yes, go ahead',
    ])
      await sendMessage(service, filed, text);
    const flight = (await createTask(service, { agent_id: 'flight-changes' })).body.id;
    await sendMessage(service, flight, 'I need to change my flight');
    await sendMessage(service, flight, 'ABC123');
    // A branch: its own turn is indexed under it, its inherited history is not indexed again.
    const branched = await rerun(service, {
      task_id: blocked,
      interaction_id: first.body.id,
      text: 'I want to dispute a charge of $120 at Coffee Corner from 5 days ago',
    });
    expect(branched.status).toBe(200);
    for (const q of QUERIES) before.set(q, { hits: await everything(q), facets: await facets(q) });
    expect(before.get('')!.hits).toHaveLength(8);
    await service.stop();
    await undo(service);
    service = await startService({ dataDir: service.dataDir });
  });
  afterAll(() => service.dispose());

  it('indexes every stored turn once: the same hits and the same counts as before', async () => {
    for (const q of QUERIES) {
      const then = before.get(q)!;
      const now = await everything(q);
      expect(then.hits.length, q).toBeGreaterThan(0);
      // The same turns with the same columns, newest first (turns given in the same
      // millisecond may come in either order).
      expect(new Set(now.map(keyOf)), q).toEqual(new Set(then.hits.map(keyOf)));
      expect(now.length, q).toBe(then.hits.length);
      for (const hit of now) expect(hit, q).toEqual(then.hits.find((h) => keyOf(h) === keyOf(hit)));
      const times = now.map((h) => h.created_at);
      expect(times, q).toEqual([...times].sort().reverse());
      expect(await facets(q), q).toEqual(then.facets);
    }
  });

  it('goes on indexing the turns sent after it', async () => {
    const task = (await createTask(service, { agent_id: 'flight-changes' })).body.id;
    await sendMessage(service, task, 'I need to change my flight');
    const [newest] = (await search('?limit=1')).body.items;
    expect(newest).toMatchObject({ task_id: task, turn: 1, intent: 'change_flight' });
    expect(await everything('')).toHaveLength(9);
    expect((await facets('?agent=flight-changes')).total).toBe(3);
  });
});
