import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, call, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
let taskId: string;
let interactionIds: string[];
const TEXTS = [
  'I want to dispute a charge',
  'It was a duplicate charge',
  '$42.50',
  'yesterday',
  'jane.doe@example.com',
];

beforeAll(async () => {
  service = await startService();
  taskId = (await createTask(service)).body.id;
  interactionIds = [];
  for (const text of TEXTS) interactionIds.push((await sendMessage(service, taskId, text)).body.id);
});
afterAll(() => service.dispose());

describe('GET /v1/messaging/tasks/{task_id}/trace-info', () => {
  it('answers a bare array of every trace in thread order', async () => {
    const { status, body } = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`);
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((t: { interaction_id: string }) => t.interaction_id)).toEqual(interactionIds);
    expect(body.map((t: { input: { message: string } }) => t.input.message)).toEqual(TEXTS);
  });

  it('answers the trace embedded in the send-message reply', async () => {
    const task = (await createTask(service)).body;
    const sent = (await sendMessage(service, task.id, 'freeze my card')).body;
    const { body } = await call(service, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`);
    expect(body).toEqual([sent.trace_info]);
  });

  it('answers the page envelope when page or size is given', async () => {
    const first = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info?page=1&size=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 5, page: 1, size: 2, pages: 3 });
    expect(first.body.items.map((t: { interaction_id: string }) => t.interaction_id)).toEqual(
      interactionIds.slice(0, 2),
    );
    const last = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info?page=3&size=2`);
    expect(last.body.items.map((t: { interaction_id: string }) => t.interaction_id)).toEqual(
      interactionIds.slice(4),
    );
    const beyond = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info?page=9&size=2`);
    expect(beyond.body).toMatchObject({ items: [], total: 5, page: 9, pages: 3 });
    const sizeOnly = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info?size=50`);
    expect(sizeOnly.body).toMatchObject({ total: 5, page: 1, size: 50, pages: 1 });
    const pageOnly = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info?page=1`);
    expect(pageOnly.body.items).toHaveLength(5);
  });

  it('following the pages gives the whole thread in order', async () => {
    const seen: string[] = [];
    for (let page = 1, pages = 1; page <= pages; page += 1) {
      const { body } = await call(
        service,
        'GET',
        `/v1/messaging/tasks/${taskId}/trace-info?page=${page}&size=2`,
      );
      pages = body.pages;
      seen.push(...body.items.map((t: { interaction_id: string }) => t.interaction_id));
    }
    expect(seen).toEqual(interactionIds);
  });

  it('rejects bad paging values with 422', async () => {
    for (const query of ['page=0', 'size=0', 'page=abc', 'size=100000', 'page=1.5']) {
      const { status, body } = await call(
        service,
        'GET',
        `/v1/messaging/tasks/${taskId}/trace-info?${query}`,
      );
      expect(status, query).toBe(422);
      expect(body.detail[0].loc[0]).toBe('query');
    }
  });

  it('selects one interaction with interaction_id as a one-element array', async () => {
    const { status, body } = await call(
      service,
      'GET',
      `/v1/messaging/tasks/${taskId}/trace-info?interaction_id=${interactionIds[2]}`,
    );
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    expect(body[0].interaction_id).toBe(interactionIds[2]);
  });

  it('answers 404 for an interaction that is not in the task', async () => {
    const other = (await createTask(service)).body;
    const foreign = (await sendMessage(service, other.id, 'hello')).body.id;
    const { status, body } = await call(
      service,
      'GET',
      `/v1/messaging/tasks/${taskId}/trace-info?interaction_id=${foreign}`,
    );
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Not Found', message: `Interaction not found: ${foreign}` });
  });

  it('answers 404 with the spec body for an unknown task', async () => {
    const { status, body } = await call(service, 'GET', '/v1/messaging/tasks/nope/trace-info');
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Not Found', message: 'Task not found: nope' });
  });

  it("answers 403 when the key may not use the task's agent, 401 without a key", async () => {
    const flights = (await createTask(service, { agent_id: 'flight-changes' })).body;
    const forbidden = await call(service, 'GET', `/v1/messaging/tasks/${flights.id}/trace-info`, {
      key: CARDS_ONLY,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('Forbidden');
    const allowed = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`, {
      key: CARDS_ONLY,
    });
    expect(allowed.status).toBe(200);
    const anonymous = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`, { key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key' });
  });
});

describe('GET /v1/messaging/tasks/{task_id}/interactions/{interaction_id}/trace-info', () => {
  it('answers one trace object', async () => {
    const all = (await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`)).body;
    const { status, body } = await call(
      service,
      'GET',
      `/v1/messaging/tasks/${taskId}/interactions/${interactionIds[1]}/trace-info`,
    );
    expect(status).toBe(200);
    expect(body).toEqual(all[1]);
  });

  it('answers 404 for an unknown task or interaction, 403 and 401 as the list does', async () => {
    const unknownTask = await call(
      service,
      'GET',
      `/v1/messaging/tasks/nope/interactions/${interactionIds[0]}/trace-info`,
    );
    expect(unknownTask.status).toBe(404);
    expect(unknownTask.body).toEqual({ error: 'Not Found', message: 'Task not found: nope' });
    const unknownInteraction = await call(
      service,
      'GET',
      `/v1/messaging/tasks/${taskId}/interactions/msg_nope/trace-info`,
    );
    expect(unknownInteraction.status).toBe(404);
    expect(unknownInteraction.body).toEqual({
      error: 'Not Found',
      message: 'Interaction not found: msg_nope',
    });
    const flights = (await createTask(service, { agent_id: 'flight-changes' })).body;
    const sent = (await sendMessage(service, flights.id, 'hello')).body;
    const forbidden = await call(
      service,
      'GET',
      `/v1/messaging/tasks/${flights.id}/interactions/${sent.id}/trace-info`,
      { key: CARDS_ONLY },
    );
    expect(forbidden.status).toBe(403);
    const anonymous = await call(
      service,
      'GET',
      `/v1/messaging/tasks/${taskId}/interactions/${interactionIds[0]}/trace-info`,
      { key: null },
    );
    expect(anonymous.status).toBe(401);
  });
});
