/**
 * The worker pool is shared fairly between keys: a key that floods it with what-ifs gets its own
 * requests refused ("busy", 503 with Retry-After), while another key's send goes ahead of the
 * flood's waiting work and is answered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEnginePool, type EnginePool } from '../../server/work/engine-pool';
import { heavyBundle } from '../../tools/lib/heavy-bundle';
import { call, CARDS_ONLY, createTask, ROOT, startService, type Reply, type Service } from './helpers';

/** Hundreds of ms of engine work per turn, so a what-if on its turn is as heavy. */
const HEAVY = heavyBundle(10);
const FLOOD = 14;

let service: Service | undefined;
let pool: EnginePool | undefined;
afterEach(async () => {
  await service?.dispose();
  await pool?.close();
  service = pool = undefined;
});

const idOf = (reply: Reply) => (reply.body as { id: string }).id;

describe('the worker pool shared between keys', () => {
  it("answers another key's send ahead of a flood of what-ifs, and refuses only the flooding key", async () => {
    // One thread per key and one more: 8 requests may wait, refused at once (no pause), so that the
    // first refusal says when the flood, alone so far, has filled the queue.
    pool = createEnginePool({
      size: 1,
      queueLimit: 8,
      deadlineMs: 120_000,
      heapLimitMb: 512,
      refusalPauseMs: 0,
    });
    service = await startService({ dependencies: { work: pool } });
    const s = service;
    const floodTask = idOf(await createTask(s, {}, CARDS_ONLY));
    const turn = await call(s, 'POST', '/v1/messaging/messages', {
      key: CARDS_ONLY,
      body: {
        type: 'message',
        task_id: floodTask,
        text: 'I want to dispute a charge',
        agent_settings_bundle: HEAVY,
      },
    });
    expect(turn.status).toBe(200);
    const otherTask = idOf(await createTask(s, {}, ROOT));

    const answered: string[] = [];
    const question = { task_id: floodTask, interaction_id: idOf(turn) };
    const flood = Array.from({ length: FLOOD }, () =>
      call(s, 'POST', '/reference/v1/what-if', { key: CARDS_ONLY, body: question }).then((reply) => {
        if (reply.status === 200) answered.push('flood');
        return reply;
      }),
    );
    // The first refusal: the flooding key, alone, now fills the queue.
    await Promise.race([
      new Promise<void>((resolve) =>
        flood.forEach((r) => void r.then((reply) => reply.status === 503 && resolve())),
      ),
      Promise.all(flood),
    ]);
    const send = call(s, 'POST', '/v1/messaging/messages', {
      key: ROOT,
      body: { type: 'message', task_id: otherTask, text: 'I want to dispute a charge' },
    }).then((reply) => {
      answered.push('send');
      return reply;
    });

    expect((await send).status).toBe(200);
    const replies = await Promise.all(flood);
    const refused = replies.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const reply of refused) {
      expect(reply.headers.get('retry-after')).toBe('2');
      expect(reply.body).toMatchObject({
        error: 'Service Unavailable',
        message: expect.stringMatching(/^The service is busy: /),
      });
    }
    expect(replies.every((r) => r.status === 200 || r.status === 503)).toBe(true);
    // The send went ahead of the flood's waiting work: most of the flood was answered after it.
    const sendAt = answered.indexOf('send');
    const floodAfter = answered.length - sendAt - 1;
    expect(floodAfter).toBeGreaterThan(sendAt);
  });
});
