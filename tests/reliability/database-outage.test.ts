/**
 * The PostgreSQL database goes away under a running service (cut at the network, as a server
 * restarting or a network partition would) and comes back: meanwhile every API request that
 * needs it is answered 503 with a body saying what happened and what to do, `/healthz` says the
 * store is unreachable, nothing crashes, and once the database is back the service answers again
 * with nothing acknowledged missing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { call, createTask, sendMessage, startService, type Service } from '../api/helpers';
import { freshDatabase, postgresAdminUrl, skipReason } from '../support/postgres';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

let service: Service | undefined;
let proxy: TcpProxy | undefined;
afterAll(async () => {
  await service?.dispose();
  await proxy?.close();
});

const title = postgresAdminUrl ? 'a database outage' : `a database outage (skipped: ${skipReason})`;

describe.skipIf(!postgresAdminUrl)(title, () => {
  it('answers 503 with a clear body while PostgreSQL is unreachable, and recovers when it returns', async () => {
    const url = new URL(await freshDatabase('outage'));
    proxy = await startTcpProxy(Number(url.port));
    url.port = String(proxy.port);
    service = await startService({ databaseUrl: url.toString() });
    const task = (await createTask(service)).body;
    const first = await sendMessage(service, task.id, 'I want to dispute a charge');
    expect(first.status).toBe(200);

    await proxy.cut();
    const send = await sendMessage(service, task.id, 'duplicate charge');
    expect(send.status).toBe(503);
    expect(send.headers.get('retry-after')).toBe('2');
    expect(send.body).toEqual({
      error: 'Service Unavailable',
      message: expect.stringMatching(/database is unreachable.*Retry/s),
    });
    for (const path of [`/v1/messaging/tasks/${task.id}/trace-info`, '/v1/messaging/tasks/nope/trace-info'])
      expect((await call(service, 'GET', path)).status).toBe(503);
    expect((await createTask(service)).status).toBe(503);
    const health = await call(service, 'GET', '/healthz', { key: null });
    expect(health).toMatchObject({
      status: 503,
      body: {
        status: 'unavailable',
        store: { kind: 'postgres', reachable: false },
        damaged_values: { count: 0, last: null },
      },
    });

    await proxy.restore();
    expect((await call(service, 'GET', '/healthz', { key: null })).body).toEqual({
      status: 'ok',
      store: { kind: 'postgres', reachable: true },
      damaged_values: { count: 0, last: null },
    });
    const again = await sendMessage(service, task.id, 'duplicate charge');
    expect(again.status).toBe(200);
    const traces = await call(service, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`);
    expect(traces.body.map((t: { interaction_id: string }) => t.interaction_id)).toEqual([
      first.body.id,
      again.body.id,
    ]);
  });
});
