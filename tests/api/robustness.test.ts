import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, call, createTask, startService, type Service } from './helpers';

let service: Service;
let taskId: string;
const LIMIT = 4096;

beforeAll(async () => {
  service = await startService({ bodyLimitBytes: LIMIT });
  taskId = (await createTask(service)).body.id;
});
afterAll(() => service.dispose());

/** Sends a raw request (chunked when `chunks` is given) and answers status and parsed body. */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; chunks?: string[]; body?: string },
) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const url = new URL(path, service.url);
    const req = request(
      url,
      { method: options.method ?? 'POST', headers: { 'x-service-api-key': ROOT, ...options.headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') as Record<string, unknown> }),
        );
      },
    );
    req.on('error', reject);
    if (options.chunks) for (const chunk of options.chunks) req.write(chunk);
    req.end(options.body);
  });
}

describe('malformed input never yields a 5xx', () => {
  const messages = '/v1/messaging/messages';
  const cases: [
    string,
    {
      path?: string;
      method?: string;
      rawBody?: string | Uint8Array<ArrayBuffer>;
      body?: unknown;
      headers?: Record<string, string>;
    },
    number,
  ][] = [
    [
      'malformed JSON',
      { rawBody: '{"type": "message",', headers: { 'content-type': 'application/json' } },
      422,
    ],
    ['an empty JSON body', { rawBody: '', headers: { 'content-type': 'application/json' } }, 422],
    ['no body and no content type', {}, 422],
    ['a text/plain body', { rawBody: 'hello', headers: { 'content-type': 'text/plain' } }, 415],
    [
      'a form body',
      { rawBody: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      415,
    ],
    ['a JSON array', { body: [1, 2, 3] }, 422],
    ['a JSON string', { body: 'message' }, 422],
    ['JSON null', { rawBody: 'null', headers: { 'content-type': 'application/json' } }, 422],
    ['a number for text', { body: { type: 'message', task_id: 'x', text: 5 } }, 422],
    [
      'an array for the bundle',
      { body: { type: 'message', task_id: 'x', text: 'hi', agent_settings_bundle: [] } },
      422,
    ],
    [
      'a string for the per-message pin',
      { body: { type: 'message', task_id: 'x', text: 'hi', agent: 'v1' } },
      422,
    ],
    ['a huge task id', { body: { type: 'message', task_id: 'x'.repeat(1000), text: 'hi' } }, 422],
    [
      'invalid UTF-8',
      {
        rawBody: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        headers: { 'content-type': 'application/json' },
      },
      422,
    ],
    [
      'a JSON content type with parameters and bad JSON',
      { rawBody: '{', headers: { 'content-type': 'application/json; charset=utf-8' } },
      422,
    ],
    [
      'a bundle nested deeper than any real one',
      {
        rawBody: `{"type":"message","task_id":"x","text":"hi","agent_settings_bundle":${'{"not":'.repeat(400)}1${'}'.repeat(400)}}`,
        headers: { 'content-type': 'application/json' },
      },
      422,
    ],
    ['an unknown endpoint', { path: '/v1/messaging/nothing', method: 'GET' }, 404],
    ['a GET on a POST endpoint', { path: '/v1/messaging/messages', method: 'GET' }, 404],
    ['a percent-encoded task id', { path: '/v1/messaging/tasks/%E0%A4%A/trace-info', method: 'GET' }, 404],
    ['a task id with slashes', { path: '/v1/messaging/tasks/a%2Fb/trace-info', method: 'GET' }, 404],
    [
      'repeated paging parameters',
      { path: `/v1/messaging/tasks/TASK/trace-info?page=1&page=2`, method: 'GET' },
      422,
    ],
  ];

  for (const [name, request, expected] of cases) {
    it(`answers ${expected} to ${name}`, async () => {
      const { status, body } = await call(
        service,
        request.method ?? 'POST',
        (request.path ?? messages).replace('TASK', taskId),
        request,
      );
      expect(status).toBe(expected);
      expect(typeof body.error).toBe('string');
      expect(typeof body.message).toBe('string');
      expect(body.message.length).toBeGreaterThan(0);
    });
  }

  it('explains malformed JSON and a wrong content type in the message', async () => {
    const malformed = await call(service, 'POST', messages, {
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.body.message).toMatch(/not valid JSON/);
    expect(malformed.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    const text = await call(service, 'POST', messages, {
      rawBody: 'hi',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.body.message).toMatch(/must be JSON/);
  });
});

describe('body size limit', () => {
  const big = JSON.stringify({ type: 'message', task_id: 'x', text: 'a'.repeat(LIMIT * 2) });

  it('answers 413 when Content-Length is over the limit', async () => {
    const { status, body } = await raw('/v1/messaging/messages', {
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) },
      body: big,
    });
    expect(status).toBe(413);
    expect(body.error).toBe('Payload Too Large');
    expect(body.message).toContain(String(LIMIT));
  });

  it('answers 413 when a chunked body grows over the limit', async () => {
    const { status } = await raw('/v1/messaging/messages', {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: [big.slice(0, 3000), big.slice(3000, 6000)],
      body: big.slice(6000),
    });
    expect(status).toBe(413);
  });

  it('accepts a chunked body under the limit', async () => {
    const small = JSON.stringify({ type: 'message', task_id: taskId, text: 'hello' });
    const { status } = await raw('/v1/messaging/messages', {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: [small.slice(0, 10)],
      body: small.slice(10),
    });
    expect(status).toBe(200);
  });
});

describe('authentication on every endpoint', () => {
  const endpoints: [string, string][] = [
    ['POST', '/v1/messaging/tasks'],
    ['POST', '/v1/messaging/messages'],
    ['POST', '/v1/messaging/messages/rerun'],
    ['GET', '/v1/messaging/tasks/x/trace-info'],
    ['GET', '/v1/messaging/tasks/x/interactions/y/trace-info'],
    ['GET', '/reference/v1/agents'],
    ['GET', '/reference/v1/agents/card-disputes/bundle'],
    ['POST', '/reference/v1/validate'],
    ['GET', '/reference/v1/schemas/bundle.json'],
  ];
  for (const [method, path] of endpoints) {
    it(`${method} ${path} answers 401 with the spec body without a valid key`, async () => {
      for (const key of [null, 'wrong-key', '']) {
        const { status, body } = await call(service, method, path, {
          key,
          ...(method === 'POST' ? { body: {} } : {}),
        });
        expect(status).toBe(401);
        expect(body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key' });
      }
    });
  }
});

describe('request logs', () => {
  it('log one JSON line per request with method, path, status and ms, and never a key', async () => {
    const secret = 'root-key';
    const before = service.logs.length;
    await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info?x-service-api-key=${secret}`, {
      key: secret,
    });
    await call(service, 'POST', '/v1/messaging/tasks', { key: 'some-unknown-key', body: {} });
    await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`, {
      key: secret,
      keyHeader: 'x-aui-api-key',
    });
    const lines = service.logs.slice(before);
    expect(lines).toHaveLength(3);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', `/v1/messaging/tasks/${taskId}/trace-info`, 200],
      ['POST', '/v1/messaging/tasks', 401],
      ['GET', `/v1/messaging/tasks/${taskId}/trace-info`, 200],
    ]);
    for (const entry of entries) expect(typeof entry.ms).toBe('number');
    for (const line of service.logs) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain('some-unknown-key');
    }
  });
});

describe('CORS', () => {
  it("answers a preflight from the service's own origin without a key, allowing the key and scope headers", async () => {
    const response = await fetch(`${service.url}/v1/messaging/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: service.url,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-aui-api-key,x-aui-organization-id',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(service.url);
    const allowed = response.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
    for (const header of [
      'x-service-api-key',
      'x-aui-api-key',
      'x-aui-organization-id',
      'x-aui-account-id',
      'x-aui-user-id',
      'content-type',
    ]) {
      expect(allowed).toContain(header);
    }
  });

  it('marks API responses to its own origin, errors included, as readable', async () => {
    const response = await fetch(`${service.url}/v1/messaging/tasks/x/trace-info`, {
      headers: { origin: service.url },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(service.url);
  });
});
