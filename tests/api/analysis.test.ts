/**
 * `POST /reference/v1/lint` and `POST /reference/v1/diff` over HTTP, on the real engine (in the
 * worker pool) and the real store: findings and differences with witnesses, every refusal, and the
 * recorded turns of a changed region counted and found again by the turn search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_DEFECTS } from '../../engine/analysis/seeded-defects.fixture';
import { CARDS_ONLY, call, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
let v1: Record<string, unknown>;
let v2: Record<string, unknown>;
let flights: Record<string, unknown>;

const CLOCK = '2025-03-15T12:00:00Z';
const V1 = 'v1-30-day-window';
const V2 = 'v2-8-day-window';

const bundleOf = async (path: string) =>
  (await call<{ bundle: Record<string, unknown> }>(service, 'GET', path)).body.bundle;

beforeAll(async () => {
  service = await startService();
  v1 = await bundleOf(`/reference/v1/agents/card-disputes/bundle?version_id=${V1}`);
  v2 = await bundleOf(`/reference/v1/agents/card-disputes/bundle?version_id=${V2}`);
  flights = await bundleOf('/reference/v1/agents/flight-changes/bundle');
});
afterAll(() => service.dispose());

const lint = (body: unknown, key?: string) => call(service, 'POST', '/reference/v1/lint', { body, key });
const diff = (body: unknown, key?: string) => call(service, 'POST', '/reference/v1/diff', { body, key });

/** The lint corpus's seeds of one kind in the card-disputes agent. */
const seedOf = (kind: string) => SEEDED_DEFECTS.find((s) => s.base === 'card-disputes' && s.kind === kind)!;
/** A bundle the validator refuses: a rule of a tool the bundle does not have. */
const invalidBundle = (bundle: Record<string, unknown>) => ({
  ...bundle,
  rules: [{ code: 'NOWHERE', applied_to: ['NO_SUCH_TOOL'], then: { action: 'BLOCK' } }],
});

describe('POST /reference/v1/lint', () => {
  it('finds seeded defects where they are in the bundle, with a witness where the engine shows one', async () => {
    const [dead, always] = [seedOf('dead_rule'), seedOf('always_holds')];
    const seeded = always.seed(dead.seed(v2));
    const { status, body } = await lint({ agent_settings_bundle: seeded, clock: CLOCK });
    expect(status).toBe(200);
    expect(body.regions).toBeGreaterThan(0);
    type Finding = { code: string; severity: string; rule?: string; loc: { path: unknown[] } };
    const findings = body.findings as (Finding & {
      witness?: { tool: string; clock: string; values: object };
    })[];
    const deadFound = findings.find((f) => f.rule === dead.expect.rule);
    expect(deadFound).toMatchObject({
      code: 'dead_rule',
      severity: 'error',
      loc: { path: ['agent_tools', 0, 'rules', 'pre', 'constraint', expect.any(Number)] },
    });
    const alwaysFound = findings.find((f) => f.rule === always.expect.rule);
    expect(alwaysFound).toMatchObject({
      code: 'always_holds',
      witness: { tool: 'DISPUTE_CHARGE', clock: CLOCK },
    });
    // The agent as shipped has neither.
    const clean = await lint({ agent_settings_bundle: v2, clock: CLOCK });
    expect(clean.status).toBe(200);
    const seededRules = [dead.expect.rule, always.expect.rule];
    expect(clean.body.findings.filter((f: Finding) => seededRules.includes(f.rule))).toEqual([]);
  });

  it('refuses a bundle that does not validate with its issues, naming it (422)', async () => {
    const broken = invalidBundle(v2);
    const { status, body } = await lint({ agent_settings_bundle: broken });
    expect(status).toBe(422);
    expect(body.message).toMatch(/^agent_settings_bundle: Invalid agent settings bundle/);
    expect(body.issues.length).toBeGreaterThan(0);
    expect(body.detail[0].loc.slice(0, 2)).toEqual(['body', 'agent_settings_bundle']);
  });

  it('refuses malformed input with a 4xx and a readable message, never a 5xx', async () => {
    const truncated = await call(service, 'POST', '/reference/v1/lint', {
      rawBody: '{"agent_settings_bundle": {',
      headers: { 'content-type': 'application/json' },
    });
    expect(truncated.status).toBeGreaterThanOrEqual(400);
    expect(truncated.status).toBeLessThan(500);
    expect(typeof truncated.body.message).toBe('string');
    const notJson = await call(service, 'POST', '/reference/v1/lint', {
      rawBody: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    for (const body of [
      {},
      { agent_settings_bundle: [] },
      { agent_settings_bundle: v2, clock: 'noon' },
      { agent_settings_bundle: v2, extra: 1 },
    ]) {
      const r = await lint(body);
      expect(r.status).toBe(422);
      expect(r.body.detail.length).toBeGreaterThan(0);
    }
    expect((await lint({ agent_settings_bundle: v2 }, 'no-such-key')).status).toBe(401);
  });
});

describe('POST /reference/v1/diff', () => {
  it('finds a version equivalent to itself', async () => {
    const { status, body } = await diff({
      agent_id: 'card-disputes',
      base: { version_id: V2 },
      head: { agent_settings_bundle: v2 },
      clock: CLOCK,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ equivalent: true, differences: [] });
    expect(body.base.version_id).toBe(V2);
    expect(body.head.version_id).toBeUndefined();
    expect(body.base.bundle_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.head.bundle_hash).toBe(body.base.bundle_hash);
  });

  it("answers the regions the agent's two versions decide differently, each with a witness", async () => {
    const { status, body } = await diff({
      agent_id: 'card-disputes',
      base: { version_id: V1 },
      head: { version_id: V2 },
      clock: CLOCK,
    });
    expect(status).toBe(200);
    expect(body.equivalent).toBe(false);
    expect(body.differences.length).toBeGreaterThan(0);
    expect(body.base).toMatchObject({ version_id: V1 });
    expect(body.head).toMatchObject({ version_id: V2 });
    expect(body.base.bundle_hash).not.toBe(body.head.bundle_hash);
    for (const d of body.differences) {
      expect(d.tool).toBe('DISPUTE_CHARGE');
      expect(d.witness).toMatchObject({ tool: 'DISPUTE_CHARGE', clock: expect.any(String) });
      // Some part of the outcome differs (the reply alone when the window's message changed).
      expect(d.before).not.toEqual(d.after);
    }
    // Only the window moved (30 → 8 days): some difference is blocked by it after and not before.
    expect(
      body.differences.some(
        (d: { after: { rules: string[] }; before: { rules: string[] } }) =>
          d.after.rules.includes('DISPUTE_WINDOW') && !d.before.rules.includes('DISPUTE_WINDOW'),
      ),
    ).toBe(true);
  });

  it('refuses what it cannot compare: an unknown version (404), a version without agent_id, two agents, an invalid side (422)', async () => {
    const unknown = await diff({
      agent_id: 'card-disputes',
      base: { version_id: 'v9-nope' },
      head: { version_id: V2 },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('v9-nope');
    const noAgent = await diff({
      agent_id: 'no-such-agent',
      base: { version_id: V1 },
      head: { version_id: V2 },
    });
    expect(noAgent.status).toBe(404);

    const needsAgent = await diff({ base: { version_id: V1 }, head: { agent_settings_bundle: v2 } });
    expect(needsAgent.status).toBe(422);
    expect(needsAgent.body.message).toContain('agent_id is needed');

    const twoAgents = await diff({
      base: { agent_settings_bundle: v2 },
      head: { agent_settings_bundle: flights },
    });
    expect(twoAgents.status).toBe(422);
    expect(twoAgents.body.message).toContain('different agents');
    expect(twoAgents.body.detail[0].type).toBe('different_agents');

    const broken = invalidBundle(v2);
    const invalid = await diff({
      agent_id: 'card-disputes',
      base: { version_id: V2 },
      head: { agent_settings_bundle: broken },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toMatch(/^head: Invalid agent settings bundle/);
    expect(invalid.body.detail[0].loc.slice(0, 3)).toEqual(['body', 'head', 'agent_settings_bundle']);
    expect(invalid.body.issues.length).toBeGreaterThan(0);

    const both = await diff({
      agent_id: 'card-disputes',
      base: { version_id: V1, agent_settings_bundle: v1 },
      head: { version_id: V2 },
    });
    expect(both.status).toBe(422);
    const sinceWithoutAgent = await diff({
      base: { agent_settings_bundle: v1 },
      head: { agent_settings_bundle: v2 },
      recorded_since: '2025-01-01T00:00:00Z',
    });
    expect(sinceWithoutAgent.status).toBe(422);
  });

  it('counts the recorded turns in each changed region, and its search finds them', async () => {
    // Both sides without the dispute window (whose regions count days before each turn's own
    // clock, which the search cannot say), the identity check moved from $500 to $1,000.
    const noWindow = structuredClone(v2) as Record<string, unknown> & {
      agent_tools: { code: string; rules: { pre: { constraint: { code: string }[] } } }[];
    };
    const dispute = noWindow.agent_tools.find((t) => t.code === 'DISPUTE_CHARGE')!;
    dispute.rules.pre.constraint = dispute.rules.pre.constraint.filter((c) => c.code !== 'DISPUTE_WINDOW');
    const head = structuredClone(noWindow) as typeof noWindow & {
      rules: { when: { all: { value: number }[] } }[];
    };
    head.rules[0]!.when.all[0]!.value = 1000;
    const since = new Date().toISOString();
    const sent: string[] = [];
    for (const [user, text] of [
      [
        'u-a',
        'I want to dispute a charge of $700 at Coffee Corner from 3 days ago, call me at +1 555 010 0199',
      ],
      ['u-b', 'dispute a $950 charge at Metro Grocers from yesterday, my phone is +1 555 010 0123'],
      // Below $500: the same decision on both sides, in no changed region.
      [
        'u-c',
        'I want to dispute a charge of $300 at Coffee Corner from 3 days ago, call me at +1 555 010 0199',
      ],
    ] as const) {
      const task = await createTask(service, { user_id: user });
      const reply = await sendMessage(service, task.body.id, text);
      expect(reply.status).toBe(200);
      if (user !== 'u-c') sent.push(reply.body.id);
    }
    const { status, body } = await diff({
      agent_id: 'card-disputes',
      base: { agent_settings_bundle: noWindow },
      head: { agent_settings_bundle: head },
      clock: CLOCK,
      recorded_since: since,
    });
    expect(status).toBe(200);
    type Counted = { region: { words: string }; recorded?: { count: number; search: string } };
    const differences = body.differences as Counted[];
    const counted = differences.filter((d) => d.recorded && d.recorded.count > 0);
    expect(counted).toHaveLength(1);
    const found = counted[0]!;
    expect(found.recorded!.count).toBe(2);
    expect(found.region.words).toContain('transaction-amount > 500 and ≤ 1000');
    // The search finds exactly the turns counted.
    const search = await call(service, 'GET', `/reference/v1/turns?${found.recorded!.search}`);
    expect(search.status).toBe(200);
    expect(search.body.items.map((i: { interaction_id: string }) => i.interaction_id).sort()).toEqual(
      [...sent].sort(),
    );
    expect(new URLSearchParams(found.recorded!.search).getAll('agent')).toEqual(['card-disputes']);
    // A region the search cannot say exactly has no count, and says why.
    const left = differences.filter((d) => !d.recorded);
    expect(left.length).toBeGreaterThan(0);
    for (const d of left)
      expect(
        body.not_analysed.some((n: { reason: string }) => n.reason.includes(`"${d.region.words}"`)),
      ).toBe(true);
  });

  it('refuses a key limited to other agents (403)', async () => {
    const { status, body } = await diff(
      {
        agent_id: 'flight-changes',
        base: { agent_settings_bundle: flights },
        head: { agent_settings_bundle: flights },
      },
      CARDS_ONLY,
    );
    expect(status).toBe(403);
    expect(body.message).toContain('flight-changes');
  });

  it('lists both routes in the OpenAPI document with every error status', async () => {
    const { body } = await call(service, 'GET', '/openapi.json');
    for (const [path, statuses] of [
      ['/reference/v1/lint', ['200', '401', '413', '415', '422', '503']],
      ['/reference/v1/diff', ['200', '401', '403', '404', '413', '415', '422', '503']],
    ] as const) {
      const op = body.paths[path].post;
      expect(op.tags).toEqual(['Reference']);
      expect(op.description.length).toBeGreaterThan(50);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining([...statuses]));
    }
  });
});
