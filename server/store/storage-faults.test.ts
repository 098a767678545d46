import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { parseApiKeys } from '../auth/api-keys';
import { defaultDependencies } from '../default-dependencies';
import { SqliteStore } from './sqlite-store';
import { storageFault } from './storage-faults';

/** A real SQLITE_FULL: SQLite's own "database or disk is full", from a database capped at its size. */
function diskFullError(): Error {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (x TEXT)');
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
  try {
    db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000));
  } catch (error) {
    return error as Error;
  } finally {
    db.close();
  }
  throw new Error('the capped database took the row');
}

describe('storage faults', () => {
  it('classifies SQLite and file-system errors', () => {
    expect(storageFault(diskFullError())).toBe('full');
    expect(storageFault({ code: 'SQLITE_IOERR_WRITE' })).toBe('io');
    expect(storageFault({ code: 'SQLITE_READONLY_DBMOVED' })).toBe('read-only');
    expect(storageFault({ code: 'ENOSPC' })).toBe('full');
    expect(storageFault({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })).toBeUndefined();
    expect(storageFault(new TypeError('x'))).toBeUndefined();
  });

  it('answers a full disk met while saving a turn with 507 saying so, and carries on once it is not', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    const full = diskFullError();
    let diskFull = false;
    const appendTurn = store.appendTurn.bind(store);
    store.appendTurn = async (taskId, next) => {
      if (diskFull) throw full;
      return appendTurn(taskId, next);
    };
    const logs: string[] = [];
    const app = createApp({
      store,
      dependencies: defaultDependencies(),
      apiKeys: parseApiKeys('k=*'),
      log: (l) => logs.push(l),
    });
    const post = (path: string, body: unknown) =>
      app.request(path, {
        method: 'POST',
        headers: { 'x-service-api-key': 'k', 'content-type': 'application/json', host: '127.0.0.1' },
        body: JSON.stringify(body),
      });
    const task = (await (
      await post('/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: 'u' })
    ).json()) as {
      id: string;
    };
    const send = () => post('/v1/messaging/messages', { type: 'message', task_id: task.id, text: 'hello' });

    diskFull = true;
    const refused = await send();
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual({
      error: 'Insufficient Storage',
      message:
        'The disk holding the service’s database is full, so nothing was saved. Free some space; the service carries on by itself once there is room.',
    });
    expect(logs.some((l) => l.includes('"msg":"storage fault: full"'))).toBe(true);

    diskFull = false;
    expect((await send()).status).toBe(200);
    await store.close();
  });
});
