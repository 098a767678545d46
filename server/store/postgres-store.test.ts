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
