import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { starterBundle, STARTER_DIR } from '../support/starter-agent';
import {
  CARDS_ONLY,
  call,
  createTask,
  sendMessage,
  startService,
  tempDataDir,
  type Service,
} from './helpers';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The starter bundle with another fee-free rule: stays over `max` nights are refused. */
function withMaxNights(max: number): Record<string, unknown> {
  const text = JSON.stringify(starterBundle())
    .replaceAll('"value":14', `"value":${max}`)
    .replaceAll('more than 14 nights', `more than ${max} nights`);
  return JSON.parse(text) as Record<string, unknown>;
}

describe('agents created through the API', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.dispose());

  it('creates an agent from a bundle that greets with its own welcome and starters, and talks', async () => {
    const created = await call(service, 'POST', '/reference/v1/agents', {
      body: { bundle: starterBundle() },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'room-bookings',
      name: 'Harbour Hotel Bookings',
      source: 'created',
      active_version: 'v1',
      versions: [{ id: 'v1', tag: 'v1' }],
      welcome_message: expect.stringMatching(/^Welcome to the Harbour Hotel!/),
      suggestions: ['Book a room', 'Book a suite for 2 nights from next friday'],
    });
    const list = await call(service, 'GET', '/reference/v1/agents');
    expect(list.body.agents.map((a: { id: string }) => a.id)).toContain('room-bookings');

    const task = await createTask(service, { agent_id: 'room-bookings' });
    expect(task.status).toBe(200);
    expect(task.body.welcome_message).toMatch(/^Welcome to the Harbour Hotel!/);
    expect(task.body.version_id).toBe('v1');
    const reply = await sendMessage(service, task.body.id, 'book a suite from next friday for 20 nights');
    expect(reply.body.trace_info.decision).toBe('block_with_explanation');
    expect(reply.body.text).toMatch(/more than 14 nights/);
    const info = await call(service, 'GET', `/reference/v1/tasks/${task.body.id}`);
    expect(info.status).toBe(200);
  });

  it('refuses an invalid bundle with its issues, and an id already taken', async () => {
    const bad = await call(service, 'POST', '/reference/v1/agents', {
      body: { id: 'broken', bundle: { agent_tools: [{ code: 'X', integrations: [{ code: 'nope' }] }] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.issues.length).toBeGreaterThan(0);
    expect((await call(service, 'GET', '/reference/v1/agents/broken')).status).toBe(404);
    const taken = await call(service, 'POST', '/reference/v1/agents', {
      body: { id: 'card-disputes', bundle: starterBundle() },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/already exists/);
  });

  it('publishes immutable versions, keeps one active version, and pins threads', async () => {
    expect(
      (
        await call(service, 'POST', '/reference/v1/agents', {
          body: { id: 'hotel', bundle: starterBundle() },
        })
      ).status,
    ).toBe(201);
    // Edit the draft, then publish it as v2 with a note.
    const put = await call(service, 'PUT', '/reference/v1/agents/hotel/draft', {
      body: { bundle: withMaxNights(7) },
    });
    expect(put.status).toBe(200);
    const published = await call(service, 'POST', '/reference/v1/agents/hotel/versions', {
      body: { tag: 'week-max', note: 'At most 7 nights' },
    });
    expect(published.status).toBe(200);
    expect(published.body.versions.map((v: { id: string; tag: string }) => [v.id, v.tag])).toEqual([
      ['v1', 'v1'],
      ['v2', 'week-max'],
    ]);
    expect(published.body.active_version).toBe('v1');
    // A tag already used is refused: a published version never changes.
    const again = await call(service, 'POST', '/reference/v1/agents/hotel/versions', {
      body: { tag: 'week-max', bundle: withMaxNights(3) },
    });
    expect(again.status).toBe(409);
    // Editing the draft afterwards changes neither version.
    await call(service, 'PUT', '/reference/v1/agents/hotel/draft', { body: { bundle: withMaxNights(2) } });
    const v2 = await call(service, 'GET', '/reference/v1/agents/hotel/bundle?version=week-max');
    expect(JSON.stringify(v2.body.bundle)).toContain('"value":7');
    const v1 = await call(service, 'GET', '/reference/v1/agents/hotel/bundle?version=v1');
    expect(JSON.stringify(v1.body.bundle)).toContain('"value":14');

    // Activate v2: new threads run it; a thread pinned to v1 keeps v1.
    const active = await call(service, 'POST', '/reference/v1/agents/hotel/active', {
      body: { version: 'week-max' },
    });
    expect(active.body.active_version).toBe('v2');
    const onActive = (await createTask(service, { agent_id: 'hotel' })).body;
    const onV1 = (await createTask(service, { agent_id: 'hotel', version_tag: 'v1' })).body;
    expect([onActive.version_id, onV1.version_id]).toEqual(['v2', 'v1']);
    const say = 'book a suite from next friday for 10 nights';
    expect((await sendMessage(service, onActive.id, say)).body.trace_info.decision).toBe(
      'block_with_explanation',
    );
    expect((await sendMessage(service, onV1.id, say)).body.trace_info.decision).toBe('request_confirmation');
    // Activating an unknown version names it.
    const unknown = await call(service, 'POST', '/reference/v1/agents/hotel/active', {
      body: { version: 'v9' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/v9/);
  });

  it('deletes an agent without threads and refuses one with threads', async () => {
    await call(service, 'POST', '/reference/v1/agents', { body: { id: 'spare', bundle: starterBundle() } });
    expect((await call(service, 'DELETE', '/reference/v1/agents/spare')).status).toBe(204);
    expect((await call(service, 'GET', '/reference/v1/agents/spare')).status).toBe(404);
    await call(service, 'POST', '/reference/v1/agents', { body: { id: 'busy', bundle: starterBundle() } });
    await createTask(service, { agent_id: 'busy' });
    const refused = await call(service, 'DELETE', '/reference/v1/agents/busy');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/has threads/);
  });

  it('changes only created agents: an example agent is refused with what to do', async () => {
    const draft = await call(service, 'GET', '/reference/v1/agents/card-disputes/draft');
    expect(draft.status).toBe(409);
    expect(draft.body.message).toMatch(/create your own agent/);
    const publish = await call(service, 'POST', '/reference/v1/agents/card-disputes/versions', { body: {} });
    expect(publish.status).toBe(409);
    const detail = await call(service, 'GET', '/reference/v1/agents/card-disputes');
    expect(detail.body).toMatchObject({ source: 'example', active_version: 'v2-8-day-window' });
  });

  it('needs a key, and a limited key sees and changes only its agents (403)', async () => {
    expect(
      (await call(service, 'POST', '/reference/v1/agents', { key: null, body: { bundle: {} } })).status,
    ).toBe(401);
    const create = await call(service, 'POST', '/reference/v1/agents', {
      key: CARDS_ONLY,
      body: { id: 'not-mine', bundle: starterBundle() },
    });
    expect(create.status).toBe(403);
    for (const [method, path, body] of [
      ['GET', '/reference/v1/agents/hotel', undefined],
      ['GET', '/reference/v1/agents/hotel/draft', undefined],
      ['PUT', '/reference/v1/agents/hotel/draft', { bundle: {} }],
      ['POST', '/reference/v1/agents/hotel/versions', {}],
      ['POST', '/reference/v1/agents/hotel/active', { version: 'v1' }],
      ['DELETE', '/reference/v1/agents/hotel', undefined],
      ['POST', '/reference/v1/agents/reload', undefined],
    ] as const)
      expect((await call(service, method, path, { key: CARDS_ONLY, ...(body ? { body } : {}) })).status).toBe(
        403,
      );
    const list = await call(service, 'GET', '/reference/v1/agents', { key: CARDS_ONLY });
    expect(list.body.agents.map((a: { id: string }) => a.id)).toEqual(['card-disputes']);
  });

  it('documents the agent endpoints in the OpenAPI document', async () => {
    const openapi = await call(service, 'GET', '/openapi.json');
    expect(openapi.body.paths['/reference/v1/agents'].post).toBeDefined();
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining([
        '/reference/v1/agents/{agent_id}',
        '/reference/v1/agents/{agent_id}/draft',
        '/reference/v1/agents/{agent_id}/versions',
        '/reference/v1/agents/{agent_id}/active',
        '/reference/v1/agents/reload',
        '/reference/v1/agent-folders',
      ]),
    );
  });
});

describe('a created agent across a restart', () => {
  it('keeps its versions, active version and draft', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await startService({ dataDir });
    await call(first, 'POST', '/reference/v1/agents', { body: { id: 'hotel', bundle: starterBundle() } });
    await call(first, 'POST', '/reference/v1/agents/hotel/versions', {
      body: { bundle: withMaxNights(7), activate: true },
    });
    await call(first, 'PUT', '/reference/v1/agents/hotel/draft', { body: { bundle: withMaxNights(5) } });
    const task = (await createTask(first, { agent_id: 'hotel' })).body;
    await first.stop();

    const second = await startService({ dataDir });
    try {
      const draft = await call(second, 'GET', '/reference/v1/agents/hotel/draft');
      expect(draft.status).toBe(200);
      expect(JSON.stringify(draft.body.bundle)).toContain('"value":5');
      const detail = await call(second, 'GET', '/reference/v1/agents/hotel');
      expect(detail.body).toMatchObject({ active_version: 'v2', versions: [{ id: 'v1' }, { id: 'v2' }] });
      const reply = await sendMessage(second, task.id, 'book a suite from next friday for 6 nights');
      expect(reply.status).toBe(200);
      expect(reply.body.version_id).toBe('v2');
    } finally {
      await second.stop();
    }
  });
});

describe('agents from folders', () => {
  let service: Service;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'threadline-agents-'));
    dirs.push(folder);
    cpSync(STARTER_DIR, join(folder, 'rooms'), { recursive: true });
    writeFileSync(
      join(folder, 'rooms', 'agent.aui.json'),
      JSON.stringify({ name: 'Rooms', welcome_message: 'Rooms here.' }),
    );
    mkdirSync(join(folder, 'broken'));
    writeFileSync(join(folder, 'broken', 'agent.aui.json'), '{"name": "Broken"}');
    writeFileSync(join(folder, 'broken', 'parameters.aui.json'), '[{"code": "x", "type": "no-such-type"}]');
    // The versioned layout, as the example agents use.
    cpSync(join(STARTER_DIR), join(folder, 'suites', 'v1-first'), { recursive: true });
    writeFileSync(
      join(folder, 'suites', 'agent.json'),
      JSON.stringify({
        name: 'Suites',
        description: 'Versioned',
        active_version: 'v1-first',
        versions: [{ id: 'v1-first', tag: 'v1', description: 'First' }],
      }),
    );
    service = await startService({ agentDirs: [folder] });
  });
  afterAll(() => service.dispose());

  it('loads every project in either layout, and reports a broken one with its file and skips it', async () => {
    const list = await call(service, 'GET', '/reference/v1/agents');
    const folderAgents = list.body.agents.filter((a: { source: string }) => a.source === 'folder');
    expect(
      folderAgents.map((a: { id: string; versions: { id: string }[] }) => [
        a.id,
        a.versions.map((v) => v.id),
      ]),
    ).toEqual([
      ['rooms', ['local']],
      ['suites', ['v1-first']],
    ]);
    const problems = (await call(service, 'GET', '/reference/v1/agent-folders')).body.problems;
    expect(problems).toEqual([
      expect.objectContaining({ project: join(folder, 'broken'), file: 'parameters.aui.json' }),
    ]);
    expect(problems[0].path).toMatch(/^parameters\.0/);
  });

  it('agent-folders answers the shape server/README.md states: {problems: [{project, file, path, message, severity}]}', async () => {
    const answer = (await call(service, 'GET', '/reference/v1/agent-folders')).body;
    expect(Object.keys(answer)).toEqual(['problems']);
    for (const p of answer.problems) {
      expect(Object.keys(p).sort()).toEqual(['file', 'message', 'path', 'project', 'severity']);
      for (const v of Object.values(p)) expect(typeof v).toBe('string');
      expect(['error', 'warning']).toContain(p.severity);
    }
    expect(answer.problems[0].path).toMatch(/^parameters\.0\.type/);
    expect(answer.problems[0].message).toMatch(/\S/);
  });

  it('picks up changes on reload, keeping stored tasks and turns', async () => {
    const task = (await createTask(service, { agent_id: 'rooms' })).body;
    expect(task.welcome_message).toBe('Rooms here.');
    await sendMessage(service, task.id, 'I want to book a room');
    writeFileSync(
      join(folder, 'rooms', 'agent.aui.json'),
      JSON.stringify({ name: 'Rooms', welcome_message: 'Rooms, reloaded.' }),
    );
    writeFileSync(
      join(folder, 'broken', 'parameters.aui.json'),
      '[{"code": "x", "type": "string", "usage": "input"}]',
    );
    const reload = await call(service, 'POST', '/reference/v1/agents/reload');
    expect(reload.status).toBe(200);
    expect(reload.body).toEqual({ agents: ['broken', 'rooms', 'suites'], problems: [] });
    expect((await createTask(service, { agent_id: 'rooms' })).body.welcome_message).toBe('Rooms, reloaded.');
    const next = await sendMessage(service, task.id, 'next friday');
    expect(next.status).toBe(200);
    const traces = await call(service, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`);
    expect(traces.body).toHaveLength(2);
  });

  it('refuses to change a folder agent through the API, saying where it comes from', async () => {
    const publish = await call(service, 'POST', '/reference/v1/agents/rooms/versions', { body: {} });
    expect(publish.status).toBe(409);
    expect(publish.body.message).toMatch(/project folder/);
  });
});
