/**
 * Size and shape limits on the real service process: oversized bodies, texts, bundles and nesting
 * get clear 4xx answers (413 / 422 with a message), and a burst of them does not make the service
 * hold on to memory: its resident size stays bounded (a generous behavioural bound, not a timing),
 * and it runs with a capped V8 heap so retaining the bodies would crash it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../../tools/lib/service-process';
import { getJson, postJson, raw, type RawReply } from './wire';

const KEY = 'limits-key';
const LIMIT = 2 * 1024 * 1024; // the service's default body limit
const MB = 1024 * 1024;
const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };

let service: ServiceProcess;
let dataDir: string;
let taskId: string;
let interactionId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'threadline-limits-'));
  service = await startServiceProcess({
    data: dataDir,
    keys: `${KEY}=*`,
    env: { NODE_OPTIONS: '--max-old-space-size=192' },
  });
  taskId = (
    await postJson<{ id: string }>(service.url, '/v1/messaging/tasks', KEY, {
      agent_id: 'card-disputes',
      user_id: 'limits',
    })
  ).id;
  interactionId = (
    await postJson<{ id: string }>(service.url, '/v1/messaging/messages', KEY, {
      type: 'message',
      task_id: taskId,
      text: 'I want to dispute a charge',
    })
  ).id;
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const send = (body: string, options: { chunked?: boolean; path?: string } = {}) =>
  raw(service.url, {
    method: 'POST',
    path: options.path ?? '/v1/messaging/messages',
    headers,
    body,
    chunked: options.chunked ?? false,
  });

/** A JSON document of about `bytes` bytes. */
const padded = (bytes: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'message', task_id: taskId, text: 'x'.repeat(bytes), ...extra });
const deepBundle = (depth: number) =>
  `{"type":"message","task_id":"${taskId}","text":"hi","agent_settings_bundle":{"general_settings":{"context":${'['.repeat(depth)}1${']'.repeat(depth)}}}}`;
const bigBundle = (bytes: number) =>
  JSON.stringify({
    type: 'message',
    task_id: taskId,
    text: 'hi',
    agent_settings_bundle: {
      parameters: Array.from({ length: Math.ceil(bytes / 100) }, (_, i) => ({
        code: `p-${i}`,
        type: 'string',
        usage: 'input',
        description: 'd'.repeat(50),
      })),
    },
  });

function expectError(reply: RawReply, status: number, pattern: RegExp) {
  expect(reply.status).toBe(status);
  const body = reply.json as { error: string; message: string };
  expect(typeof body.error).toBe('string');
  expect(body.message).toMatch(pattern);
}

describe('oversized and over-deep requests get clear 4xx answers', () => {
  it('answers 413 to a body over the limit, declared with Content-Length', async () => {
    expectError(await send(padded(LIMIT + 10)), 413, /larger than the limit of 2097152 bytes/);
  });

  it('answers 413 to a body over the limit sent chunked, without a declared length', async () => {
    expectError(await send(padded(3 * MB), { chunked: true }), 413, /larger than the limit/);
  });

  it('closes the connection after a 413, so a pooled client never reuses a half-read one', async () => {
    const pool = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const chunked of [true, false]) {
        const refused = await raw(
          service.url,
          { method: 'POST', path: '/v1/messaging/messages', headers, body: padded(3 * MB), chunked },
          pool,
        );
        expect(refused.status).toBe(413);
        expect(refused.headers.connection).toBe('close');
        const next = await raw(
          service.url,
          { method: 'POST', path: '/v1/messaging/messages', headers, body: padded(10) },
          pool,
        );
        expect(next.status).toBe(200);
      }
    } finally {
      pool.destroy();
    }
  });

  it('answers 413 to a bundle over the limit, on send and on rerun', async () => {
    expectError(await send(bigBundle(LIMIT + MB)), 413, /larger than the limit/);
    const rerun = JSON.stringify({
      task_id: taskId,
      interaction_id: interactionId,
      text: 'hi',
      agent_settings_bundle: JSON.parse(bigBundle(LIMIT + MB)).agent_settings_bundle,
    });
    expectError(await send(rerun, { path: '/v1/messaging/messages/rerun' }), 413, /larger than the limit/);
  });

  it('answers 422 naming the field to a message text over 20,000 characters, on send and on rerun', async () => {
    const reply = await send(padded(20_001));
    expectError(reply, 422, /text/);
    expect((reply.json as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['body', 'text']);
    const rerun = await send(
      JSON.stringify({ task_id: taskId, interaction_id: interactionId, text: 'y'.repeat(20_001) }),
      { path: '/v1/messaging/messages/rerun' },
    );
    expectError(rerun, 422, /text/);
    // 20,000 characters exactly is still a message.
    expect((await send(padded(20_000))).status).toBe(200);
  });

  it('answers 422 to JSON nested deeper than the service reads, wherever the nesting is', async () => {
    expectError(await send(deepBundle(5_000)), 422, /nested deeper than 100 levels/);
    expectError(await send(deepBundle(500_000)), 422, /nested deeper/);
    const deepValidate = `{"agent_settings_bundle":{"general_settings":{"context":${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}}}}`;
    expectError(await send(deepValidate, { path: '/reference/v1/validate' }), 422, /nested deeper/);
    // Brackets inside strings are text, not nesting.
    expect(
      (await send(JSON.stringify({ type: 'message', task_id: taskId, text: '['.repeat(5000) }))).status,
    ).toBe(200);
  });

  it('answers 422 to ids and query values over their limits', async () => {
    expectError(
      await send(JSON.stringify({ type: 'message', task_id: 't'.repeat(201), text: 'hi' })),
      422,
      /task_id/,
    );
    const page = await raw(service.url, {
      method: 'GET',
      path: `/v1/messaging/tasks/${taskId}/trace-info?size=100000`,
      headers,
    });
    expectError(page, 422, /size/);
    const id = await raw(service.url, {
      method: 'GET',
      path: `/v1/messaging/tasks/${taskId}/trace-info?interaction_id=${'i'.repeat(5000)}`,
      headers,
    });
    expectError(id, 422, /interaction_id/);
  });
});

describe('memory under a burst of oversized requests', () => {
  it('keeps the service resident size bounded and the service answering', async () => {
    const kinds: (() => Promise<RawReply>)[] = [
      () => send(padded(3 * MB)),
      () => send(padded(3 * MB), { chunked: true }),
      () => send(padded(LIMIT - 1000)), // read and parsed in full, then refused by the schema
      () => send(deepBundle(LIMIT / 2 - 200)), // just under the limit, a million brackets
      () => send(bigBundle(LIMIT + MB)),
    ];
    for (const kind of kinds) await kind(); // warm-up: every code path once
    const before = service.rss();

    const ROUNDS = 24; // 120 requests, about 250 MB on the wire
    let sentBytes = 0;
    let peak = before;
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < ROUNDS * kinds.length) {
        const kind = kinds[next++ % kinds.length]!;
        const reply = await kind();
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        sentBytes += LIMIT;
        peak = Math.max(peak, service.rss());
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    // Holding on to what was sent would mean hundreds of MB; a few buffers in flight are fine. The
    // service may take a moment to hand back its last buffers: wait for that, not a fixed time.
    await expect.poll(() => service.rss() - before, { timeout: 10_000, interval: 50 }).toBeLessThan(100 * MB);
    const after = service.rss();
    console.log(
      `[figure] memory: ${ROUNDS * kinds.length} requests, ~${Math.round(sentBytes / MB)} MB sent; service RSS ${Math.round(before / MB)} MB before, peak ${Math.round(peak / MB)} MB, ${Math.round(after / MB)} MB after; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );

    expect([...statuses.keys()].sort()).toEqual([413, 422]);
    expect(peak - before).toBeLessThan(200 * MB);
    // Still alive and still right.
    const traces = await getJson<unknown[]>(service.url, `/v1/messaging/tasks/${taskId}/trace-info`, KEY);
    expect(traces.length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
