/**
 * The lineage and bundle endpoints of the reference service: a task's origin, what each turn
 * ran with (a page at a time), the branches below a task (branches of branches too), bundles by content hash, all
 * behind the same keys as the Messaging API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, call, createTask, rerun, sendMessage, startService, type Service } from './helpers';

let service: Service;
let original: string;
let firstTurn: string;
let secondTurn: string;
let branch: string;
let grandchild: string;
let bundleHash: string;
let flightTask: string;
let flightHash: string;

const BLOCKED = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

async function bundleWithWindow(agent: string, days: number) {
  const { body } = await call(service, 'GET', `/reference/v1/agents/${agent}/bundle`);
  const bundle = structuredClone(body.bundle);
  bundle.__window_marker = days; // unknown top-level keys are kept; the content (and hash) differs
  return bundle;
}

beforeAll(async () => {
  service = await startService();
  original = (await createTask(service)).body.id;
  firstTurn = (await sendMessage(service, original, BLOCKED)).body.id;
  secondTurn = (await sendMessage(service, original, 'It was a duplicate charge')).body.id;
  const bundle = await bundleWithWindow('card-disputes', 30);
  const made = await rerun(service, {
    task_id: original,
    interaction_id: firstTurn,
    text: 'A charge of $120 at Coffee Corner, 10 days ago',
    agent_settings_bundle: bundle,
  });
  expect(made.status).toBe(200);
  branch = made.body.regenerated_task_id;
  bundleHash = made.body.message.bundle_hash;
  const branchTurns = await call(service, 'GET', `/v1/messaging/tasks/${branch}/trace-info`);
  const again = await rerun(service, {
    task_id: branch,
    interaction_id: branchTurns.body[0].interaction_id,
    text: 'Once more',
    version_tag: 'v1',
  });
  grandchild = again.body.regenerated_task_id;
  flightTask = (await createTask(service, { agent_id: 'flight-changes' })).body.id;
  const flightBundle = await bundleWithWindow('flight-changes', 1);
  flightHash = (
    await sendMessage(service, flightTask, 'I need to change my flight', {
      agent_settings_bundle: flightBundle,
    })
  ).body.bundle_hash;
});
afterAll(() => service.dispose());

describe('GET /reference/v1/tasks/{task_id}', () => {
  it('answers an original thread: no parent, its own root, and no per-turn list', async () => {
    const { status, body } = await call(service, 'GET', `/reference/v1/tasks/${original}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      task_id: original,
      agent_id: 'card-disputes',
      version_id: 'v2-8-day-window',
      version_tag: 'v2',
      root_task_id: original,
      parent: null,
    });
    // What each turn ran with is read a page at a time (/runs): a long thread's info stays small.
    expect(body).not.toHaveProperty('turns');
  });

  it('answers a branch with its parent, fork interaction, replaced and replayed text', async () => {
    const { body } = await call(service, 'GET', `/reference/v1/tasks/${branch}`);
    expect(body.root_task_id).toBe(original);
    const { body: parent } = await call(service, 'GET', `/reference/v1/tasks/${original}`);
    // A branch keeps its parent's clock, so its dates replay as the parent's did.
    expect(typeof parent.reference_clock).toBe('string');
    expect(body.reference_clock).toBe(parent.reference_clock);
    expect(body.parent).toEqual({
      task_id: original,
      interaction_id: firstTurn,
      turn_index: 0,
      replaced_text: BLOCKED,
      text: 'A charge of $120 at Coffee Corner, 10 days ago',
    });
  });

  it('answers a branch of a branch with its version and the family root', async () => {
    const { body } = await call(service, 'GET', `/reference/v1/tasks/${grandchild}`);
    expect(body.root_task_id).toBe(original);
    expect(body.parent.task_id).toBe(branch);
    expect(body.version_id).toBe('v1-30-day-window');
  });

  it('needs a key, refuses an agent-limited key another agent, and names an unknown task', async () => {
    const noKey = await call(service, 'GET', `/reference/v1/tasks/${original}`, { key: null });
    expect(noKey.status).toBe(401);
    expect(noKey.body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key' });
    const limited = await call(service, 'GET', `/reference/v1/tasks/${flightTask}`, { key: CARDS_ONLY });
    expect(limited.status).toBe(403);
    expect(limited.body.message).toBe('This API key may not use agent: flight-changes');
    const allowed = await call(service, 'GET', `/reference/v1/tasks/${original}`, { key: CARDS_ONLY });
    expect(allowed.status).toBe(200);
    const missing = await call(service, 'GET', '/reference/v1/tasks/task_nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Not Found', message: 'Task not found: task_nope' });
  });
});

describe('GET /reference/v1/tasks/{task_id}/runs', () => {
  const runs = (task: string, query = '', key?: string) =>
    call(service, 'GET', `/reference/v1/tasks/${task}/runs${query}`, key ? { key } : {});

  it('answers what each turn ran with, in thread order, in the trace list envelope', async () => {
    const { status, body } = await runs(original, '?page=1&size=500');
    expect(status).toBe(200);
    expect(body).toEqual({
      items: [
        { interaction_id: firstTurn, bundle_hash: null, version_id: 'v2-8-day-window' },
        { interaction_id: secondTurn, bundle_hash: null, version_id: 'v2-8-day-window' },
      ],
      total: 2,
      page: 1,
      size: 500,
      pages: 1,
    });
  });

  it('pages as the trace list does: position for position', async () => {
    const traces = await call(service, 'GET', `/v1/messaging/tasks/${original}/trace-info?page=2&size=1`);
    const { body } = await runs(original, '?page=2&size=1');
    expect(body).toMatchObject({ total: 2, page: 2, size: 1, pages: 2 });
    expect(body.items.map((r: { interaction_id: string }) => r.interaction_id)).toEqual([
      traces.body.items[0].interaction_id,
    ]);
    expect((await runs(original, '?page=3&size=1')).body).toMatchObject({ items: [], total: 2, pages: 2 });
    // Without parameters: the first page of 50, as the trace list.
    expect((await runs(original)).body).toMatchObject({ page: 1, size: 50, total: 2 });
  });

  it("a branch's turns: the inherited ones as the parent ran them, its own with its bundle", async () => {
    const { body } = await runs(branch, '?page=1&size=50');
    expect(body.items).toEqual([
      { interaction_id: expect.any(String), bundle_hash: bundleHash, version_id: 'v2-8-day-window' },
    ]);
    const { body: grand } = await runs(grandchild, '?page=1&size=50');
    expect(grand.items[0]).toMatchObject({ bundle_hash: null, version_id: 'v1-30-day-window' });
  });

  it('refuses a bad page or size, an agent the key may not use, and names an unknown task', async () => {
    for (const query of ['?size=0', '?size=1001', '?page=0', '?page=x']) {
      const bad = await runs(original, query);
      expect(bad.status).toBe(422);
      expect(typeof bad.body.message).toBe('string');
    }
    expect((await runs(flightTask, '', CARDS_ONLY)).status).toBe(403);
    const missing = await runs('task_nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Not Found', message: 'Task not found: task_nope' });
  });
});

describe('GET /reference/v1/tasks/{task_id}/branches', () => {
  it('lists every branch below the root, parents first, each with its origin and bundle', async () => {
    const { status, body } = await call(service, 'GET', `/reference/v1/tasks/${original}/branches`);
    expect(status).toBe(200);
    expect(body.truncated).toBe(false);
    expect(body.branches.map((b: { task_id: string }) => b.task_id)).toEqual([branch, grandchild]);
    expect(body.branches[0]).toMatchObject({
      task_id: branch,
      bundle_hash: bundleHash,
      version_id: 'v2-8-day-window',
      parent: { task_id: original, interaction_id: firstTurn, replaced_text: BLOCKED },
    });
    expect(body.branches[1]).toMatchObject({
      task_id: grandchild,
      bundle_hash: null,
      version_tag: 'v1',
      parent: { task_id: branch, text: 'Once more' },
    });
  });

  it('lists nothing below a leaf, and answers 401, 403 and 404 like the task', async () => {
    const leaf = await call(service, 'GET', `/reference/v1/tasks/${grandchild}/branches`);
    expect(leaf.body.branches).toEqual([]);
    expect(
      (await call(service, 'GET', `/reference/v1/tasks/${original}/branches`, { key: null })).status,
    ).toBe(401);
    const limited = await call(service, 'GET', `/reference/v1/tasks/${flightTask}/branches`, {
      key: CARDS_ONLY,
    });
    expect(limited.status).toBe(403);
    const missing = await call(service, 'GET', '/reference/v1/tasks/task_nope/branches');
    expect(missing.body).toEqual({ error: 'Not Found', message: 'Task not found: task_nope' });
  });
});

describe('GET /reference/v1/bundles/{hash}', () => {
  it('answers a bundle that ran, by its hash, exactly as it was sent', async () => {
    const sent = await bundleWithWindow('card-disputes', 30);
    const { status, body } = await call(service, 'GET', `/reference/v1/bundles/${bundleHash}`);
    expect(status).toBe(200);
    expect(body).toEqual({ hash: bundleHash, agent_id: 'card-disputes', bundle: sent });
  });

  it('answers 404 alike for a bundle of another agent and a hash it never ran', async () => {
    const limited = await call(service, 'GET', `/reference/v1/bundles/${flightHash}`, { key: CARDS_ONLY });
    // The same answer as for a hash never sent: a guess tells nothing about other agents.
    expect(limited.status).toBe(404);
    expect(limited.body).toEqual({ error: 'Not Found', message: `Bundle not found: ${flightHash}` });
    expect(
      (await call(service, 'GET', `/reference/v1/bundles/${bundleHash}`, { key: CARDS_ONLY })).status,
    ).toBe(200);
    expect((await call(service, 'GET', `/reference/v1/bundles/${bundleHash}`, { key: null })).status).toBe(
      401,
    );
    const missing = await call(service, 'GET', '/reference/v1/bundles/0123abcd');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Not Found', message: 'Bundle not found: 0123abcd' });
  });

  it('all three are in the OpenAPI document', async () => {
    const openapi = await call(service, 'GET', '/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining([
        '/reference/v1/tasks/{task_id}',
        '/reference/v1/tasks/{task_id}/branches',
        '/reference/v1/bundles/{hash}',
      ]),
    );
  });
});

describe('PUT /reference/v1/tasks/{task_id}/title', () => {
  it('renames a thread for every key that may use its agent, trimmed', async () => {
    const task = (await createTask(service)).body.id;
    const renamed = await call(service, 'PUT', `/reference/v1/tasks/${task}/title`, {
      body: { title: '  Coffee Corner dispute  ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ task_id: task, title: 'Coffee Corner dispute' });
    const seen = await call(service, 'GET', `/reference/v1/tasks/${task}`, { key: CARDS_ONLY });
    expect(seen.body.title).toBe('Coffee Corner dispute');
  });

  it('refuses an empty or overlong title, another agent’s key, no key and an unknown task', async () => {
    const empty = await call(service, 'PUT', `/reference/v1/tasks/${original}/title`, {
      body: { title: '  ' },
    });
    expect(empty.status).toBe(422);
    expect(JSON.stringify(empty.body)).toContain('A title cannot be empty.');
    const long = await call(service, 'PUT', `/reference/v1/tasks/${original}/title`, {
      body: { title: 'x'.repeat(201) },
    });
    expect(long.status).toBe(422);
    const other = await call(service, 'PUT', `/reference/v1/tasks/${flightTask}/title`, {
      key: CARDS_ONLY,
      body: { title: 'Mine now' },
    });
    expect(other.status).toBe(403);
    expect(
      (
        await call(service, 'PUT', `/reference/v1/tasks/${original}/title`, {
          key: null,
          body: { title: 'x' },
        })
      ).status,
    ).toBe(401);
    const missing = await call(service, 'PUT', '/reference/v1/tasks/task_nope/title', {
      body: { title: 'x' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Not Found', message: 'Task not found: task_nope' });
  });
});
