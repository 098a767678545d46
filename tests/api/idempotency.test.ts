/**
 * `Idempotency-Key` on sends: a retry with the same key gets the first answer and adds no turn;
 * the same key for another message is refused; without the header every send is a new turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, call, createTask, ROOT, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

const send = (taskId: string, text: string, key?: string, apiKey = ROOT) =>
  call(service, 'POST', '/v1/messaging/messages', {
    key: apiKey,
    body: { type: 'message', task_id: taskId, text },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const turns = async (taskId: string) =>
  (await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`)).body.length as number;

describe('Idempotency-Key', () => {
  it('a retry returns the first answer and stores one turn, even sent at the same time', async () => {
    const taskId = (await createTask(service)).body.id;
    const [first, second] = await Promise.all([
      send(taskId, 'I want to dispute a charge', 'retry-1'),
      send(taskId, 'I want to dispute a charge', 'retry-1'),
    ]);
    const third = await send(taskId, 'I want to dispute a charge', 'retry-1');
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    expect(await turns(taskId)).toBe(1);
  });

  it('the same key for another message is a 422; another key or none is a new turn', async () => {
    const taskId = (await createTask(service)).body.id;
    expect((await send(taskId, 'I want to dispute a charge', 'k')).status).toBe(200);
    const reused = await send(taskId, 'something else', 'k');
    expect(reused.status).toBe(422);
    expect(reused.body.detail[0]).toMatchObject({
      loc: ['header', 'idempotency-key'],
      type: 'idempotency_key_reused',
    });
    expect((await send(taskId, 'something else', 'k2')).status).toBe(200);
    expect((await send(taskId, 'something else')).status).toBe(200);
    expect((await send(taskId, 'something else')).status).toBe(200);
    expect(await turns(taskId)).toBe(4);
  });

  it('keys are kept apart per API key, and a malformed key is a 422', async () => {
    const taskId = (await createTask(service, {}, CARDS_ONLY)).body.id;
    const root = await send(taskId, 'I want to dispute a charge', 'shared');
    const cards = await send(taskId, 'I want to dispute a charge', 'shared', CARDS_ONLY);
    expect(cards.status).toBe(200);
    expect(cards.body.id).not.toBe(root.body.id);
    const bad = await send(taskId, 'hello', 'has space');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].type).toBe('invalid_idempotency_key');
  });
});
