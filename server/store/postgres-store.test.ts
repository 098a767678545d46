import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshDatabase, postgresAdminUrl, skipReason } from '../../tests/support/postgres';
import { startTcpProxy } from '../../tests/support/tcp-proxy';
import { POSTGRES_MIGRATIONS } from './postgres-migrations';
import { PostgresStore } from './postgres-store';
import { StoreUnavailableError, type Store } from './store';
import { agentContract, storeContract, task, turn } from './store-contract.fixture';

const title = postgresAdminUrl ? 'PostgresStore' : `PostgresStore (skipped: ${skipReason})`;
const opened: Store[] = [];
async function open(url: string, options: { connectTimeoutMs?: number } = {}): Promise<PostgresStore> {
  const store = await PostgresStore.open({ url, ...options });
  opened.push(store);
  return store;
}
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

describe.skipIf(!postgresAdminUrl)(title, () => {
  describe('the Store contract', () => storeContract(async () => open(await freshDatabase('contract'))));
  describe('the agents contract', () => agentContract(async () => open(await freshDatabase('agents'))));

  it('applies the migrations once when several instances start at once', async () => {
    const url = await freshDatabase('migrate');
    const stores = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    await stores[0]!.createTask(task('t1'));
    expect(await stores[3]!.getTask('t1')).toEqual(task('t1'));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('SELECT version FROM threadline_schema ORDER BY version');
    await client.end();
    expect(rows).toEqual(POSTGRES_MIGRATIONS.map((_, i) => ({ version: i + 1 })));
  });

  it('orders the tasks stored before the thread list by their last reply, new activity above them', async () => {
    const url = await freshDatabase('list-migrate');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const before = POSTGRES_MIGRATIONS.findIndex((m) => m.includes('tasks_activity_seq'));
    await client.query(
      'CREATE TABLE threadline_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    for (const [i, m] of POSTGRES_MIGRATIONS.slice(0, before).entries()) {
      await client.query(m);
      await client.query('INSERT INTO threadline_schema (version) VALUES ($1)', [i + 1]);
    }
    const insertTask = (id: string, createdAt: string) =>
      client.query(
        `INSERT INTO tasks (id, agent_id, user_id, origin, title, suggestions, version_id, clock, initial_state, created_at)
         VALUES ($1, 'card-disputes', 'u1', 'web-widget', $1, '[]', 'v2', $2, '{}', $2)`,
        [id, createdAt],
      );
    await insertTask('old', '2025-01-01T00:00:00.000Z');
    await insertTask('replied', '2025-01-02T00:00:00.000Z');
    await insertTask('new', '2025-01-03T00:00:00.000Z');
    await client.query(
      `INSERT INTO turns VALUES ('replied', 1, 'i1', 'u-i1', 'hi', '2025-01-04T00:00:00.000Z', 'ok', '[]',
        '2025-01-04T00:00:00.000Z', '{}', '{}', NULL, 'v2')`,
    );
    await client.end();
    const store = await open(url);
    const listed = async () => (await store.listTasks({ agents: [] }, null, null, 10)).tasks.map((t) => t.id);
    expect(await listed()).toEqual(['replied', 'new', 'old']);
    await store.createTask(task('t1'));
    await store.appendTurn('old', () => turn('old', 1));
    expect(await listed()).toEqual(['old', 't1', 'replied', 'new']);
  });

  it('applies concurrent turns of one task from two instances one at a time, each on the state the last left', async () => {
    const url = await freshDatabase('order');
    const [a, b] = [await open(url), await open(url)];
    await a.createTask(task('t1'));
    const seen: number[] = [];
    const N = 40;
    await Promise.all(
      Array.from({ length: N }, (_, n) =>
        (n % 2 ? a : b).appendTurn('t1', (before) => {
          const step = (before.step as number) + 1;
          seen.push(step);
          return { ...turn('t1', n + 1), state: { step } };
        }),
      ),
    );
    // No lost update: every turn saw the one before it, so the steps count 1..N in thread order.
    const turns = await a.listTurns('t1');
    expect(turns.map((t) => t.state.step)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect(new Set(turns.map((t) => t.interactionId)).size).toBe(N);
    expect(seen).toHaveLength(N);
  });

  it('reports a database that went away as unavailable, and works again when it is back', async () => {
    const url = new URL(await freshDatabase('outage'));
    const proxy = await startTcpProxy(Number(url.port));
    url.port = String(proxy.port);
    try {
      const store = await open(url.toString(), { connectTimeoutMs: 1000 });
      await store.createTask(task('t1'));
      await store.appendTurn('t1', () => turn('t1', 1));
      await proxy.cut();
      await expect(store.appendTurn('t1', () => turn('t1', 2))).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.listTurns('t1')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await store.health()).toEqual({ store: 'postgres', reachable: false });
      await proxy.restore();
      await store.appendTurn('t1', () => turn('t1', 2));
      expect((await store.listTurns('t1')).map((t) => t.interactionId)).toEqual(['i1', 'i2']);
      expect(await store.health()).toEqual({ store: 'postgres', reachable: true });
    } finally {
      await proxy.close();
    }
  });

  it('refuses to start on an unreachable database with a store-unavailable error', async () => {
    const proxy = await startTcpProxy(1);
    await proxy.cut();
    await expect(
      PostgresStore.open({ url: `postgres://postgres@127.0.0.1:${proxy.port}/x`, connectTimeoutMs: 1000 }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
