/**
 * Timeouts judge the client only: a request that has arrived whole and that the server is still
 * working on is answered, however long the socket stays silent meanwhile. Here a send waits on a
 * PostgreSQL row lock for well over the service's inactivity timeout (2 s in this test, 10 s by
 * default) and still gets its 200, with its turn stored once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresAdminUrl, skipReason } from '../support/postgres';
import { startServiceProcess, type ServiceProcess } from '../../tools/lib/service-process';
import { getJson, jsonHeaders, postJson, raw } from './wire';

const KEY = 'lock-key';
const TIMEOUT_MS = 2000;
const HELD_MS = 5000;
let service: ServiceProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'threadline-server-work-'));
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const title = postgresAdminUrl
  ? 'a request the server is still working on'
  : `a request the server is still working on (skipped: ${skipReason})`;

describe.skipIf(!postgresAdminUrl)(title, () => {
  it('is answered after a row lock held longer than the inactivity timeout, and stored once', async () => {
    const databaseUrl = await freshDatabase('server-work');
    service = await startServiceProcess({
      data: dataDir,
      keys: `${KEY}=*`,
      env: {
        THREADLINE_DATABASE_URL: databaseUrl,
        THREADLINE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
      },
    });
    const task = await postJson<{ id: string }>(service.url, '/v1/messaging/tasks', KEY, {
      agent_id: 'card-disputes',
      user_id: 'u',
    });
    const taskId = task.id;
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM tasks WHERE id = $1 FOR UPDATE', [taskId]);
      const sent = raw(service.url, {
        method: 'POST',
        path: '/v1/messaging/messages',
        headers: jsonHeaders(KEY),
        body: JSON.stringify({ type: 'message', task_id: taskId, text: 'I want to dispute a charge' }),
      });
      await new Promise((resolve) => setTimeout(resolve, HELD_MS));
      await locker.query('COMMIT');
      const answer = await sent;
      expect(answer.status).toBe(200);
      expect((answer.json as { text: string }).text).toEqual(expect.any(String));
    } finally {
      await locker.end();
    }
    const traces = await getJson<unknown[]>(service.url, `/v1/messaging/tasks/${taskId}/trace-info`, KEY);
    expect(traces).toHaveLength(1);
  });
});
