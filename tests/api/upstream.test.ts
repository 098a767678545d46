import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTask, sendMessage, startService, type Service } from './helpers';

/** A second local service stands in for the deployed one; the front one forwards to it. */
let upstream: Service;
let front: Service;

beforeAll(async () => {
  upstream = await startService({ keys: 'upstream-key=*' });
  front = await startService({ keys: 'local-key=*', upstream: upstream.url });
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
      upstream: 'http://upstream.invalid',
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
    const dead = await startService({ keys: 'k=*', upstream: 'http://127.0.0.1:9' });
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
