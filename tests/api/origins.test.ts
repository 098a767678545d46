/**
 * Cross-origin and DNS-rebinding requests over real HTTP: a page on another origin, or a page
 * whose domain was rebound to this machine, must not be able to use the service with the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../reliability/wire';
import { call, ROOT, startService, type Service } from './helpers';

let service: Service;
let port: string;

beforeAll(async () => {
  service = await startService({
    origins: {
      corsOrigins: ['http://localhost:5173'],
      allowedHosts: ['threadline.test', '.team.test'],
    },
  });
  port = new URL(service.url).port;
});
afterAll(() => service.dispose());

const preflight = (origin: string, path = '/v1/messaging/tasks') =>
  fetch(`${service.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-service-api-key',
    },
  });

describe('cross-origin requests', () => {
  it('refuses the preflight of a page on a foreign origin, without any CORS header', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:5173', 'null']) {
      const response = await preflight(origin);
      expect(response.status, origin).toBe(403);
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(response.headers.get('access-control-allow-headers'), origin).toBeNull();
      const body = (await response.json()) as { message: string };
      expect(body.message).toContain(`Origin not allowed: ${origin}`);
      expect(body.message).toContain('THREADLINE_CORS_ORIGINS');
    }
  });

  it('refuses the request itself from a foreign origin, even with a valid key', async () => {
    const created = await call(service, 'POST', '/v1/messaging/tasks', {
      body: { agent_id: 'card-disputes', user_id: 'u' },
      headers: { origin: 'http://evil.example' },
    });
    expect(created.status).toBe(403);
    expect(created.headers.get('access-control-allow-origin')).toBeNull();
    const agents = await call(service, 'GET', '/reference/v1/agents', {
      headers: { origin: 'http://evil.example' },
    });
    expect(agents.status).toBe(403);
    expect(agents.body.message).toMatch(/Origin not allowed/);
  });

  it("answers the service's own origin and the listed ones, naming that origin only", async () => {
    for (const origin of [service.url, `http://localhost:${port}`, 'http://localhost:5173']) {
      const own = origin === service.url;
      const host = own ? undefined : new URL(origin).host;
      const response = await raw(service.url, {
        method: 'OPTIONS',
        path: '/v1/messaging/messages',
        headers: {
          origin,
          ...(host && origin.endsWith(port) ? { host } : {}),
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-aui-api-key,x-aui-organization-id',
        },
      });
      expect(response.status, origin).toBe(204);
      expect(response.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(response.headers.vary, origin).toMatch(/origin/i);
      const allowed = String(response.headers['access-control-allow-headers']).toLowerCase();
      for (const header of ['x-service-api-key', 'x-aui-api-key', 'x-aui-organization-id', 'content-type'])
        expect(allowed).toContain(header);
    }
    const listed = await call(service, 'GET', '/reference/v1/agents', {
      headers: { origin: 'http://localhost:5173' },
    });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    // Errors are readable by the allowed page too.
    const error = await call(service, 'GET', '/v1/messaging/tasks/x/trace-info', {
      key: 'wrong',
      headers: { origin: 'http://localhost:5173' },
    });
    expect(error.status).toBe(401);
    expect(error.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('never answers with a wildcard', async () => {
    const plain = await call(service, 'GET', '/reference/v1/agents');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the Host header (DNS rebinding)', () => {
  const get = (host: string, path = '/reference/v1/agents') =>
    raw(service.url, { method: 'GET', path, headers: { host, 'x-service-api-key': ROOT } });

  it('refuses a foreign host name on every path, with a body that says how to allow it', async () => {
    for (const path of ['/reference/v1/agents', '/healthz', '/', '/v1/messaging/tasks/x/trace-info']) {
      const reply = await get(`rebound.evil.example:${port}`, path);
      expect(reply.status, path).toBe(403);
      expect((reply.json as { message: string }).message).toBe(
        'Host not allowed: rebound.evil.example. This service answers only loopback names, IP addresses and the hosts listed in THREADLINE_ALLOWED_HOSTS; to reach it as rebound.evil.example, start it with THREADLINE_ALLOWED_HOSTS=rebound.evil.example',
      );
    }
  });

  it('refuses a rebound page even when its request is same-origin', async () => {
    const reply = await raw(service.url, {
      method: 'POST',
      path: '/v1/messaging/tasks',
      headers: {
        host: `rebound.evil.example:${port}`,
        origin: `http://rebound.evil.example:${port}`,
        'x-service-api-key': ROOT,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ agent_id: 'card-disputes', user_id: 'u' }),
    });
    expect(reply.status).toBe(403);
    expect(reply.text).toMatch(/Host not allowed/);
  });

  it('answers loopback names, IP addresses and the listed hosts', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST.:${port}`,
      `app.localhost:${port}`,
      `[::1]:${port}`,
      `192.168.1.20:${port}`,
      `threadline.test:${port}`,
      `team.test`,
      `a.team.test:${port}`,
    ]) {
      expect((await get(host)).status, host).toBe(200);
    }
    for (const host of ['threadline.test.evil.example', 'evilteam.test', 'localhost.evil.example']) {
      expect((await get(host)).status, host).toBe(403);
    }
  });
});
