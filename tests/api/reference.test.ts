import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, call, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

describe('reference extensions', () => {
  it('lists the example agents with their versions and active version', async () => {
    const { status, body } = await call(service, 'GET', '/reference/v1/agents');
    expect(status).toBe(200);
    const ids = body.agents.map((a: { id: string }) => a.id);
    expect(ids).toEqual(['card-disputes', 'flight-changes', 'shop-returns']);
    const cards = body.agents.find((a: { id: string }) => a.id === 'card-disputes');
    expect(cards.active_version).toBe('v2-8-day-window');
    expect(cards.versions.map((v: { tag: string }) => v.tag).sort()).toEqual(['v1', 'v2']);
    expect(cards.name).toMatch(/\S/);
  });

  it('lists only the agents a limited key may use', async () => {
    const { body } = await call(service, 'GET', '/reference/v1/agents', { key: CARDS_ONLY });
    expect(body.agents.map((a: { id: string }) => a.id)).toEqual(['card-disputes']);
  });

  it("answers an agent version's bundle by id or tag, the active one by default", async () => {
    const active = await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle');
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({
      agent_id: 'card-disputes',
      version_id: 'v2-8-day-window',
      version_tag: 'v2',
    });
    expect(Array.isArray(active.body.bundle.agent_tools)).toBe(true);
    const byTag = await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle?version=v1');
    const byId = await call(
      service,
      'GET',
      '/reference/v1/agents/card-disputes/bundle?version=v1-30-day-window',
    );
    expect(byTag.body).toEqual(byId.body);
    expect(byTag.body.bundle).not.toEqual(active.body.bundle);
    const byIdParam = await call(
      service,
      'GET',
      '/reference/v1/agents/card-disputes/bundle?version_id=v1-30-day-window',
    );
    const byTagParam = await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle?version_tag=v1');
    expect(byIdParam.body).toEqual(byId.body);
    expect(byTagParam.body).toEqual(byId.body);
    const tagAsId = await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle?version_id=v1');
    expect(tagAsId.status).toBe(404);
  });

  it('answers 404 for an unknown agent or version and 403 for a foreign agent', async () => {
    const agent = await call(service, 'GET', '/reference/v1/agents/nope/bundle');
    expect(agent.status).toBe(404);
    expect(agent.body).toEqual({ error: 'Not Found', message: 'Agent not found: nope' });
    const version = await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle?version=v9');
    expect(version.status).toBe(404);
    expect(version.body.message).toContain('v9');
    const forbidden = await call(service, 'GET', '/reference/v1/agents/flight-changes/bundle', {
      key: CARDS_ONLY,
    });
    expect(forbidden.status).toBe(403);
  });

  it('validates a bundle without running it', async () => {
    const bundle = (await call(service, 'GET', '/reference/v1/agents/flight-changes/bundle')).body.bundle;
    const valid = await call(service, 'POST', '/reference/v1/validate', {
      body: { agent_settings_bundle: bundle },
    });
    expect(valid.status).toBe(200);
    expect(valid.body.valid).toBe(true);
    expect(valid.body.issues.filter((i: { severity: string }) => i.severity === 'error')).toEqual([]);
    const invalid = await call(service, 'POST', '/reference/v1/validate', {
      body: { agent_settings_bundle: { parameters: 'nope' } },
    });
    expect(invalid.status).toBe(200);
    expect(invalid.body.valid).toBe(false);
    expect(invalid.body.issues[0]).toMatchObject({ severity: 'error', loc: ['parameters'] });
    const notObject = await call(service, 'POST', '/reference/v1/validate', {
      body: { agent_settings_bundle: 42 },
    });
    expect(notObject.body.valid).toBe(false);
  });

  it('serves the JSON Schema of the bundle', async () => {
    const { status, body } = await call(service, 'GET', '/reference/v1/schemas/bundle.json');
    expect(status).toBe(200);
    expect(body.type).toBe('object');
    expect(body.properties).toHaveProperty('agent_tools');
  });

  it('serves an OpenAPI document of every endpoint, without a key', async () => {
    const { status, body } = await call(service, 'GET', '/openapi.json', { key: null });
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\./);
    expect(Object.keys(body.paths).sort()).toEqual(
      [
        '/healthz',
        '/reference/v1/agent-folders',
        '/reference/v1/agents',
        '/reference/v1/agents/reload',
        '/reference/v1/agents/{agent_id}',
        '/reference/v1/agents/{agent_id}/active',
        '/reference/v1/agents/{agent_id}/bundle',
        '/reference/v1/agents/{agent_id}/draft',
        '/reference/v1/agents/{agent_id}/impact',
        '/reference/v1/agents/{agent_id}/versions',
        '/reference/v1/bundles/{hash}',
        '/reference/v1/diff',
        '/reference/v1/lint',
        '/reference/v1/schemas/bundle.json',
        '/reference/v1/tasks',
        '/reference/v1/tasks/{task_id}',
        '/reference/v1/tasks/{task_id}/branches',
        '/reference/v1/tasks/{task_id}/runs',
        '/reference/v1/tasks/{task_id}/title',
        '/reference/v1/turns',
        '/reference/v1/turns/facets',
        '/reference/v1/validate',
        '/reference/v1/what-if',
        '/v1/messaging/messages',
        '/v1/messaging/messages/rerun',
        '/v1/messaging/tasks',
        '/v1/messaging/tasks/{task_id}/interactions/{interaction_id}/trace-info',
        '/v1/messaging/tasks/{task_id}/trace-info',
      ].sort(),
    );
    const send = body.paths['/v1/messaging/messages'].post;
    expect(send.parameters.map((p: { name: string }) => p.name)).toContain('include_trace');
    expect(Object.keys(send.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['type', 'task_id', 'text', 'agent_settings_bundle']),
    );
    expect(Object.keys(send.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '422']));
    expect(body.components.securitySchemes.ServiceApiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-service-api-key',
    });
  });

  it('answers /healthz without a key', async () => {
    const { status, body } = await call(service, 'GET', '/healthz', { key: null });
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'ok',
      store: { kind: service.storeKind, reachable: true },
      damaged_values: { count: 0, last: null },
    });
  });
});
