import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../server/config';
import { call, createTask, sendMessage, startService, type Service } from './helpers';

/** A second local service stands in for the deployed one; the front one forwards to it. */
let upstream: Service;
let front: Service;

beforeAll(async () => {
  upstream = await startService({ keys: 'upstream-key=*' });
  front = await startService({ keys: 'local-key=*', upstream: { url: upstream.url } });
});
afterAll(async () => {
  await front.dispose();
  await upstream.dispose();
});

describe('--upstream', () => {
  it("forwards /v1/messaging/* with the client's key to the upstream, answers its replies unchanged", async () => {
    const task = await call(front, 'POST', '/v1/messaging/tasks', {
      key: 'upstream-key',
      body: { agent_id: 'card-disputes', user_id: 'u' },
    });
    expect(task.status).toBe(200);
    const sent = await call(front, 'POST', '/v1/messaging/messages?include_trace=true', {
      key: 'upstream-key',
      keyHeader: 'x-aui-api-key',
      body: { type: 'message', task_id: task.body.id, text: 'I want to dispute a charge' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.trace_info.interaction_id).toBe(sent.body.id);

    // The task lives upstream: the upstream answers it directly, the front's own store has none.
    const direct = await call(upstream, 'GET', `/v1/messaging/tasks/${task.body.id}/trace-info`, {
      key: 'upstream-key',
    });
    expect(direct.body.map((t: { interaction_id: string }) => t.interaction_id)).toEqual([sent.body.id]);
    const viaFront = await call(
      front,
      'GET',
      `/v1/messaging/tasks/${task.body.id}/trace-info?page=1&size=5`,
      { key: 'upstream-key' },
    );
    expect(viaFront.body).toMatchObject({ total: 1, page: 1, size: 5 });
  });

  it("passes the upstream's errors through and does not accept the local keys for it", async () => {
    const local = await createTask(front, {}, 'local-key');
    expect(local.status).toBe(401);
    expect(local.body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key' });
    const missing = await call(front, 'GET', '/v1/messaging/tasks/nope/trace-info', { key: 'upstream-key' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Not Found', message: 'Task not found: nope' });
    const invalid = await sendMessage({ url: front.url }, 'x', '', {}, '');
    expect(invalid.status).toBe(401);
  });

  it('forwards the scope headers and nothing else of the browser', async () => {
    const seen: Record<string, string>[] = [];
    const spy = await startService({
      keys: 'k=*',
      upstream: { url: 'http://upstream.invalid' },
      fetchUpstream: async (_url, init) => {
        seen.push(Object.fromEntries(new Headers(init?.headers).entries()));
        return new Response('{"ok":true}', {
          status: 201,
          headers: { 'content-type': 'application/json', 'set-cookie': 'x=1' },
        });
      },
    });
    try {
      const reply = await call(spy, 'POST', '/v1/messaging/tasks?x=1', {
        key: 'client-key',
        body: { agent_id: 'a', user_id: 'u' },
        headers: {
          'x-aui-organization-id': 'org-1',
          'x-aui-account-id': 'acc-1',
          'x-aui-user-id': 'usr-1',
          cookie: 'session=secret',
        },
      });
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({ ok: true });
      expect(reply.headers.get('set-cookie')).toBeNull();
      expect(seen[0]).toMatchObject({
        'x-service-api-key': 'client-key',
        'x-aui-organization-id': 'org-1',
        'x-aui-account-id': 'acc-1',
        'x-aui-user-id': 'usr-1',
        'content-type': 'application/json',
      });
      expect(seen[0]).not.toHaveProperty('cookie');
      expect(spy.logs.join('\n')).not.toContain('client-key');
    } finally {
      await spy.dispose();
    }
  });

  it('answers 502 with a readable message when the upstream is unreachable', async () => {
    const dead = await startService({ keys: 'k=*', upstream: { url: 'http://127.0.0.1:9' } });
    try {
      const { status, body } = await createTask(dead, {}, 'k');
      expect(status).toBe(502);
      expect(body.error).toBe('Bad Gateway');
      expect(body.message).toContain('127.0.0.1:9');
    } finally {
      await dead.dispose();
    }
  });

  it("does not offer the example agents and never judges the deployed service's key on them", async () => {
    for (const key of ['upstream-key', 'local-key', 'any-key']) {
      for (const path of ['/reference/v1/agents', '/reference/v1/agents/card-disputes/bundle']) {
        const { status, body } = await call(front, 'GET', path, { key });
        expect(status).toBe(404);
        expect(body.error).toBe('Not Found');
        expect(body.message).toContain('Not offered in upstream mode');
      }
    }
  });

  it('answers the keyless helpers (validation, schema) for a key it does not hold, not without one', async () => {
    const valid = await call(front, 'POST', '/reference/v1/validate', {
      key: 'upstream-key',
      body: { agent_settings_bundle: {} },
    });
    expect(valid.status).toBe(200);
    expect(Array.isArray(valid.body.issues)).toBe(true);
    const schema = await call(front, 'GET', '/reference/v1/schemas/bundle.json', {
      key: 'deployed-key',
      keyHeader: 'x-aui-api-key',
    });
    expect(schema.status).toBe(200);
    const none = await call(front, 'GET', '/reference/v1/schemas/bundle.json', { key: null });
    expect(none.status).toBe(401);
  });
});

/** A fake deployed service: each test sets how it answers; it records what it was sent. */
let fake: Server;
let fakeUrl: string;
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const received: IncomingMessage[] = [];
const open = new Set<ServerResponse>();

beforeAll(async () => {
  fake = createServer((req, res) => {
    received.push(req);
    open.add(res);
    res.on('close', () => open.delete(res));
    answer(req, res);
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((resolve) => fake.close(resolve));
});

async function withFront(
  options: { url?: string; headers?: Record<string, string>; maxResponseBytes?: number; timeoutMs?: number },
  run: (front: Service) => Promise<void>,
) {
  const front = await startService({ keys: 'k=*', upstream: { url: fakeUrl, ...options } });
  try {
    await run(front);
  } finally {
    await front.dispose();
  }
}

describe('--upstream failure modes (against a local fake upstream)', () => {
  it('sends the configured upstream headers, which win over the client, and never echoes them', async () => {
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    const secret = 'Basic dXNlcjpzM2NyZXQ=';
    await withFront({ headers: { authorization: secret } }, async (front) => {
      const reply = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', {
        key: 'k',
        headers: { authorization: 'Bearer from-the-browser' },
      });
      expect(reply.status).toBe(200);
      const seen = received.at(-1)!.headers;
      expect(seen.authorization).toBe(secret);
      // The local key stays here.
      expect(seen['x-service-api-key']).toBeUndefined();
      expect(JSON.stringify([...reply.headers])).not.toContain('dXNlcjpzM2NyZXQ');
    });
  });

  it('adds the configured credentials only to a request carrying a key this service accepts', async () => {
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    const secret = 'Bearer team-credential';
    await withFront({ headers: { authorization: secret } }, async (front) => {
      for (const key of [null, 'someone-elses-key']) {
        const reply = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', { key });
        expect(reply.status).toBe(200);
        const seen = received.at(-1)!.headers;
        expect(seen.authorization).toBeUndefined();
        expect(seen['x-service-api-key']).toBe(key ?? undefined);
      }
      await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', { key: 'k' });
      expect(received.at(-1)!.headers.authorization).toBe(secret);
    });
  });

  it('passes only application/json answers through: anything else is a 502 naming its type', async () => {
    await withFront({}, async (front) => {
      for (const type of ['text/html; charset=utf-8', 'application/javascript', 'image/svg+xml', undefined]) {
        answer = (_req, res) =>
          res.writeHead(200, type ? { 'content-type': type } : {}).end('<script>localStorage</script>');
        const reply = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', { key: 'k' });
        expect(reply.status).toBe(502);
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
        expect(reply.body.message).toContain(type ? type.split(';')[0] : 'no content type');
      }
      answer = (_req, res) => res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{}');
      expect((await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', { key: 'k' })).status).toBe(404);
    });
  });

  it('forwards normalised paths only: encoded dot segments, slashes and backslashes are a 400', async () => {
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    await withFront({}, async (front) => {
      const before = received.length;
      for (const path of [
        '/v1/messaging/tasks/%2E%2E%2F%2E%2E%2Fadmin/trace-info',
        '/v1/messaging/tasks/..%2fadmin/trace-info',
        '/v1/messaging/tasks/a%5C..%5Cb/trace-info',
      ]) {
        const reply = await call(front, 'GET', path, { key: 'k' });
        expect({ path, status: reply.status }).toEqual({ path, status: 400 });
      }
      expect(received.length).toBe(before);
    });
  });

  it('takes credentials out of the URL: sent as a header, never in a 502 body or a log', async () => {
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const { upstream } = parseConfig(['--upstream', `${fakeUrl.replace('//', '//user:s3cret@')}/base/`], {});
    expect(upstream!.url).toBe(`${fakeUrl}/base`);
    const front = await startService({ keys: 'k=*', upstream: upstream! });
    try {
      expect((await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', { key: 'k' })).status).toBe(200);
      expect(received.at(-1)!.url).toBe('/base/v1/messaging/tasks/t/trace-info');
      expect(received.at(-1)!.headers.authorization).toBe(`Basic ${btoa('user:s3cret')}`);
    } finally {
      await front.dispose();
    }
    const unreachable = parseConfig(['--upstream', 'http://user:s3cret@127.0.0.1:9'], {}).upstream!;
    const dead = await startService({ keys: 'k=*', upstream: unreachable });
    try {
      const reply = await call(dead, 'GET', '/v1/messaging/tasks/t/trace-info', { key: 'k' });
      expect(reply.status).toBe(502);
      expect(reply.body.message).toMatch(
        /^The upstream service at http:\/\/127\.0\.0\.1:9 could not be reached: /,
      );
      expect(JSON.stringify(reply.body) + dead.logs.join('\n')).not.toContain('s3cret');
    } finally {
      await dead.dispose();
    }
  });

  it('passes 204 and 304 through as they are', async () => {
    answer = (req, res) => {
      if (req.url!.includes('nothing')) res.writeHead(204, { 'x-request-id': 'r1' }).end();
      else res.writeHead(304, { etag: '"v1"' }).end();
    };
    await withFront({}, async (front) => {
      const empty = await call(front, 'POST', '/v1/messaging/nothing', { body: { a: 1 } });
      expect(empty.status).toBe(204);
      expect(empty.body).toBe('');
      expect(empty.headers.get('x-request-id')).toBe('r1');
      const unchanged = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', {
        headers: { 'if-none-match': '"v1"' },
      });
      expect(unchanged.status).toBe(304);
      expect(unchanged.headers.get('etag')).toBe('"v1"');
    });
  });

  it('answers 504 when the upstream stalls before answering, and when it stalls before its body', async () => {
    await withFront({ timeoutMs: 500 }, async (front) => {
      answer = () => undefined; // never answers
      const silent = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info');
      expect(silent.status).toBe(504);
      expect(silent.body).toEqual({
        error: 'Gateway Timeout',
        message: `The upstream service at ${fakeUrl} did not answer within 0.5 s`,
      });
      answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
      const headersOnly = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info');
      expect(headersOnly.status).toBe(504);
    });
  });

  it('answers 502 naming the limit for an answer declared larger than it', async () => {
    answer = (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': 5000 })
        .end('x'.repeat(5000));
    await withFront({ maxResponseBytes: 4096 }, async (front) => {
      const reply = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info');
      expect(reply.status).toBe(502);
      expect(reply.body.message).toBe(
        `The answer of the upstream service at ${fakeUrl} is larger than the limit of 4096 bytes (THREADLINE_UPSTREAM_MAX_BYTES)`,
      );
    });
  });

  it('streams an answer through, and breaks the transfer off (never a complete-looking answer) past the limit', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const more = () => {
        if (sent >= 64 * 1024) return res.end();
        sent += 1024;
        res.write('x'.repeat(1024));
        setImmediate(more);
      };
      more();
    };
    await withFront({ maxResponseBytes: 16 * 1024 }, async (front) => {
      // Cut off in the body (a 200 whose transfer breaks) or, when the upstream outran this
      // service's first write, before the headers reached the client: never a whole answer.
      const outcome = await fetch(`${front.url}/v1/messaging/tasks/t/trace-info`, {
        headers: { 'x-service-api-key': 'k' },
      }).then(
        (response) =>
          response.text().then(
            () => 'complete',
            () => `cut off after ${response.status}`,
          ),
        () => 'cut off before the headers',
      );
      expect(['cut off after 200', 'cut off before the headers']).toContain(outcome);
      await expect.poll(() => front.logs.join('\n')).toContain('upstream answer cut off');
    });
    await withFront({ maxResponseBytes: 1024 * 1024 }, async (front) => {
      const response = await fetch(`${front.url}/v1/messaging/tasks/t/trace-info`, {
        headers: { 'x-service-api-key': 'k' },
      });
      expect((await response.text()).length).toBe(64 * 1024);
    });
  });

  it("answers with this service's CORS policy, never the upstream's wildcard", async () => {
    answer = (_req, res) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
          'access-control-allow-credentials': 'true',
        })
        .end('{}');
    await withFront({}, async (front) => {
      const sameOrigin = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', {
        headers: { origin: front.url },
      });
      expect(sameOrigin.status).toBe(200);
      expect(sameOrigin.headers.get('access-control-allow-origin')).toBe(front.url);
      expect(sameOrigin.headers.get('access-control-allow-credentials')).toBeNull();
      const plain = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info');
      expect(plain.headers.get('access-control-allow-origin')).toBeNull();
      const foreign = await call(front, 'GET', '/v1/messaging/tasks/t/trace-info', {
        headers: { origin: 'http://evil.example' },
      });
      expect(foreign.status).toBe(403);
    });
  });
});
