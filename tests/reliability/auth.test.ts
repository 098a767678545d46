/**
 * Authentication and authorisation on every endpoint: no key → 401, a wrong key → 401, a key
 * limited to another agent → 403, each with its documented body (exact JSON); refusals come
 * before any other processing (no 404 or 422 leaks to a caller without a key) and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, ROOT, startService, type Service } from '../api/helpers';
import { raw } from './wire';

let service: Service;
let flightTask: string;
let flightInteraction: string;
let cardsTask: string;

const UNAUTHORIZED = { error: 'Unauthorized', message: 'Invalid or missing API key' };
const forbidden = (agent: string) => {
  const message = `This API key may not use agent: ${agent}`;
  return {
    error: 'Forbidden',
    message,
    detail: [{ loc: ['header', 'x-service-api-key'], msg: message, type: 'forbidden' }],
  };
};

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  raw(service.url, {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const get = (path: string, headers: Record<string, string>) =>
  raw(service.url, { method: 'GET', path, headers });

beforeAll(async () => {
  service = await startService();
  const root = { 'x-service-api-key': ROOT };
  flightTask = (
    (await post('/v1/messaging/tasks', { agent_id: 'flight-changes', user_id: 'auth' }, root)).json as {
      id: string;
    }
  ).id;
  flightInteraction = (
    (
      await post(
        '/v1/messaging/messages',
        { type: 'message', task_id: flightTask, text: 'I want to change my flight' },
        root,
      )
    ).json as { id: string }
  ).id;
  cardsTask = (
    (await post('/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: 'auth' }, root)).json as {
      id: string;
    }
  ).id;
});
afterAll(() => service.dispose());

interface Endpoint {
  name: string;
  call: (headers: Record<string, string>) => ReturnType<typeof raw>;
  /** What a key limited to card-disputes gets when the endpoint concerns flight-changes. */
  cardsOnly: 403 | 200;
}

const endpoints = (): Endpoint[] => [
  {
    name: 'POST /v1/messaging/tasks',
    call: (h) => post('/v1/messaging/tasks', { agent_id: 'flight-changes', user_id: 'u' }, h),
    cardsOnly: 403,
  },
  {
    name: 'POST /v1/messaging/messages',
    call: (h) =>
      post(
        '/v1/messaging/messages?include_trace=true',
        { type: 'message', task_id: flightTask, text: 'hello' },
        h,
      ),
    cardsOnly: 403,
  },
  {
    name: 'POST /v1/messaging/messages/rerun',
    call: (h) =>
      post(
        '/v1/messaging/messages/rerun',
        { task_id: flightTask, interaction_id: flightInteraction, text: 'hello' },
        h,
      ),
    cardsOnly: 403,
  },
  {
    name: 'GET /v1/messaging/tasks/{id}/trace-info',
    call: (h) => get(`/v1/messaging/tasks/${flightTask}/trace-info`, h),
    cardsOnly: 403,
  },
  {
    name: 'GET /v1/messaging/tasks/{id}/trace-info?interaction_id=',
    call: (h) =>
      get(`/v1/messaging/tasks/${flightTask}/trace-info?interaction_id=${flightInteraction}&page=1`, h),
    cardsOnly: 403,
  },
  {
    name: 'GET /v1/messaging/tasks/{id}/interactions/{id}/trace-info',
    call: (h) => get(`/v1/messaging/tasks/${flightTask}/interactions/${flightInteraction}/trace-info`, h),
    cardsOnly: 403,
  },
  {
    name: 'GET /reference/v1/agents/{id}/bundle',
    call: (h) => get('/reference/v1/agents/flight-changes/bundle', h),
    cardsOnly: 403,
  },
  { name: 'GET /reference/v1/agents', call: (h) => get('/reference/v1/agents', h), cardsOnly: 200 },
  {
    name: 'POST /reference/v1/validate',
    call: (h) => post('/reference/v1/validate', { agent_settings_bundle: {} }, h),
    cardsOnly: 200,
  },
  {
    name: 'POST /reference/v1/what-if',
    call: (h) => post('/reference/v1/what-if', { task_id: flightTask, interaction_id: flightInteraction }, h),
    cardsOnly: 403,
  },
  {
    name: 'GET /reference/v1/schemas/bundle.json',
    call: (h) => get('/reference/v1/schemas/bundle.json', h),
    cardsOnly: 200,
  },
];

describe('every endpoint', () => {
  for (const endpoint of endpoints()) {
    describe(endpoint.name, () => {
      it('answers 401 with the documented body without a key', async () => {
        const reply = await endpoint.call({});
        expect(reply.status).toBe(401);
        expect(reply.json).toEqual(UNAUTHORIZED);
      });

      it('answers 401 with the documented body to a wrong key, in either key header', async () => {
        for (const headers of [
          { 'x-service-api-key': 'wrong-key' },
          { 'x-aui-api-key': 'wrong-key' },
          { 'x-service-api-key': ROOT.toUpperCase() },
          { 'x-service-api-key': `${ROOT}x` },
        ] as Record<string, string>[]) {
          const reply = await endpoint.call(headers);
          expect(reply.status).toBe(401);
          expect(reply.json).toEqual(UNAUTHORIZED);
        }
      });

      it(`answers ${endpoint.cardsOnly} to a key limited to another agent`, async () => {
        for (const header of ['x-service-api-key', 'x-aui-api-key']) {
          const reply = await endpoint.call({ [header]: CARDS_ONLY });
          expect(reply.status).toBe(endpoint.cardsOnly);
          if (endpoint.cardsOnly === 403) expect(reply.json).toEqual(forbidden('flight-changes'));
        }
      });

      it('answers 2xx to a key allowed every agent (the same request is otherwise valid)', async () => {
        const reply = await endpoint.call({ 'x-service-api-key': ROOT });
        expect(reply.status).toBe(200);
      });
    });
  }
});

describe('refusals come first and change nothing', () => {
  it('answers 401, not 404, for an unknown task without a valid key (no existence leak)', async () => {
    for (const path of [
      '/v1/messaging/tasks/task_nope/trace-info',
      '/v1/messaging/tasks/task_nope/interactions/msg_nope/trace-info',
    ]) {
      expect((await get(path, {})).json).toEqual(UNAUTHORIZED);
      expect((await get(path, { 'x-service-api-key': 'wrong' })).status).toBe(401);
    }
  });

  it('answers 401, not 415 or 422, to a malformed body without a valid key', async () => {
    const text = await raw(service.url, {
      method: 'POST',
      path: '/v1/messaging/messages',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(text.status).toBe(401);
    const broken = await raw(service.url, {
      method: 'POST',
      path: '/v1/messaging/messages',
      headers: { 'content-type': 'application/json', 'x-service-api-key': 'nope' },
      body: '{',
    });
    expect(broken.json).toEqual(UNAUTHORIZED);
  });

  it('keeps the refused task untouched: no turn is added by refused sends or reruns', async () => {
    const before = (await get(`/v1/messaging/tasks/${flightTask}/trace-info`, { 'x-service-api-key': ROOT }))
      .json as unknown[];
    await post(
      '/v1/messaging/messages',
      { type: 'message', task_id: flightTask, text: 'sneaky' },
      { 'x-service-api-key': CARDS_ONLY },
    );
    await post(
      '/v1/messaging/messages',
      { type: 'message', task_id: flightTask, text: 'sneaky' },
      { 'x-service-api-key': 'wrong' },
    );
    await post('/v1/messaging/messages', { type: 'message', task_id: flightTask, text: 'sneaky' }, {});
    const after = (await get(`/v1/messaging/tasks/${flightTask}/trace-info`, { 'x-service-api-key': ROOT }))
      .json as unknown[];
    expect(after).toEqual(before);
  });

  it('lets the limited key use its own agent, and lists only that agent', async () => {
    const sent = await post(
      '/v1/messaging/messages',
      { type: 'message', task_id: cardsTask, text: 'I want to dispute a charge' },
      { 'x-service-api-key': CARDS_ONLY },
    );
    expect(sent.status).toBe(200);
    const agents = (await get('/reference/v1/agents', { 'x-aui-api-key': CARDS_ONLY })).json as {
      agents: { id: string }[];
    };
    expect(agents.agents.map((a) => a.id)).toEqual(['card-disputes']);
  });

  it('serves liveness and the OpenAPI document without a key, and nothing else', async () => {
    expect((await get('/healthz', {})).status).toBe(200);
    expect((await get('/openapi.json', {})).status).toBe(200);
    expect((await get('/v1/messaging/anything', {})).status).toBe(401);
  });
});
