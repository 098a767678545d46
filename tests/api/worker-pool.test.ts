/**
 * Validation and turns of client bundles run in the worker pool, off the request loop: a small
 * request is answered while heavy sends are worked on; work past its deadline and work refused by
 * a full queue are answered 503 with Retry-After, nothing stored, and the service keeps answering.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEnginePool, type EnginePool } from '../../server/work/engine-pool';
import { heavyBundle } from '../../tools/lib/heavy-bundle';
import { call, createTask, sendMessage, startService, type Reply, type Service } from './helpers';

/** Hundreds of ms of engine work per turn. */
const HEAVY = heavyBundle(10);
const TEXT = 'I want to dispute a charge';

let service: Service | undefined;
let pool: EnginePool | undefined;
afterEach(async () => {
  await service?.dispose();
  await pool?.close();
  service = pool = undefined;
});

async function newTask(s: Service): Promise<string> {
  return ((await createTask(s)).body as { id: string }).id;
}

const heavySend = (s: Service, taskId: string) =>
  sendMessage(s, taskId, TEXT, { agent_settings_bundle: HEAVY }, '');

function expectRefused(reply: Reply, retryAfter: string, message: RegExp): void {
  expect(reply.status).toBe(503);
  expect(reply.headers.get('retry-after')).toBe(retryAfter);
  expect(reply.body).toMatchObject({ error: 'Service Unavailable', message: expect.stringMatching(message) });
  expect((reply.body as { message: string }).message).toContain('Nothing was stored');
}

describe('heavy work off the request loop', () => {
  it('answers a small GET while heavy sends are being worked on', async () => {
    service = await startService();
    const tasks = [await newTask(service), await newTask(service)];
    let heavyAnswered = 0;
    const sends = tasks.map((id) =>
      heavySend(service!, id).then((reply) => {
        heavyAnswered += 1;
        return reply;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // the sends have arrived
    const health = await call(service, 'GET', '/healthz', { key: null });
    expect(health.status).toBe(200);
    expect(heavyAnswered).toBe(0);
    expect((await Promise.all(sends)).map((r) => r.status)).toEqual([200, 200]);
  });

  it('answers 503 with Retry-After for work past its deadline, stores nothing, and keeps answering', async () => {
    pool = createEnginePool({ size: 1, queueLimit: 4, deadlineMs: 1, heapLimitMb: 512 });
    service = await startService({ dependencies: { work: pool } });
    const taskId = await newTask(service);
    expectRefused(await heavySend(service, taskId), '5', /more than 0\.001 s of work/);

    expect((await call(service, 'GET', '/healthz', { key: null })).status).toBe(200);
    const traces = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`);
    expect(traces).toMatchObject({ status: 200, body: [] });
    expect((await createTask(service)).status).toBe(200);
  });

  it('decides a what-if in the pool: 503 with Retry-After past the deadline, and the service keeps answering', async () => {
    // A stored turn to ask about, from a service with the usual pool; then the same store behind a 1 ms deadline.
    const first = await startService();
    const taskId = await newTask(first);
    const sent = await sendMessage(first, taskId, 'I want to dispute a charge of $120 at Coffee Corner');
    expect(sent.status).toBe(200);
    const interactionId = (sent.body as { id: string }).id;
    await first.stop();

    pool = createEnginePool({ size: 1, queueLimit: 4, deadlineMs: 1, heapLimitMb: 512 });
    service = await startService({ dataDir: first.dataDir, dependencies: { work: pool } });
    const question = { task_id: taskId, interaction_id: interactionId, why_not: true };
    const refused = await call(service, 'POST', '/reference/v1/what-if', { body: question });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body).toMatchObject({ message: expect.stringMatching(/more than 0\.001 s of work/) });

    expect((await call(service, 'GET', '/healthz', { key: null })).status).toBe(200);
    const traces = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`);
    expect(traces.status).toBe(200);
    expect((traces.body as unknown[]).length).toBe(1);
    const missing = await call(service, 'POST', '/reference/v1/what-if', {
      body: { ...question, interaction_id: 'no-such-interaction' },
    });
    expect(missing.status).toBe(404);
  });

  it('answers 503 with Retry-After when more requests wait for a worker than the queue holds', async () => {
    pool = createEnginePool({ size: 1, queueLimit: 1, deadlineMs: 60_000, heapLimitMb: 512 });
    service = await startService({ dependencies: { work: pool } });
    const tasks = [];
    for (let i = 0; i < 4; i++) tasks.push(await newTask(service));
    const replies = await Promise.all(tasks.map((id) => heavySend(service!, id)));
    const refused = replies.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const reply of refused) expectRefused(reply, '2', /The service is busy/);
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(replies.every((r) => r.status === 200 || r.status === 503)).toBe(true);
  });
});
