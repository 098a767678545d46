import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPACT_LIMITS } from '../../src/contract/impact';
import { engine } from '../../engine';
import { CARDS_ONLY, ROOT, call, startService, type Service } from './helpers';

/** Counts the engine turns the service runs, to see when a replay stops. */
let turnsRun = 0;
let service: Service;
let v1: Record<string, unknown>;
let active: Record<string, unknown>;

beforeAll(async () => {
  service = await startService({
    dependencies: {
      engine: {
        ...engine,
        runTurn: (input) => {
          turnsRun += 1;
          return engine.runTurn(input);
        },
      },
    },
  });
  v1 = (await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle?version=v1')).body.bundle;
  active = (await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle')).body.bundle;
});
afterAll(() => service.dispose());

const PATH = '/reference/v1/agents/card-disputes/impact';
const CLOCK = '2025-03-15T12:00:00.000Z';
const outside = {
  id: 'outside-window',
  clock: CLOCK,
  messages: ['I want to dispute a charge of $120 at Coffee Corner from 10 days ago'],
};
const inside = {
  id: 'inside-window',
  clock: CLOCK,
  messages: ['I want to dispute a charge of $120 at Coffee Corner from 3 days ago'],
};
const impact = (body: unknown, key: string = ROOT, path = PATH) => call(service, 'POST', path, { key, body });

describe('POST /reference/v1/agents/{agent_id}/impact', () => {
  it('answers the cases a draft changes against the active version, turn by turn', async () => {
    // v1 allows disputes within 30 days; the active v2 within 8: only the 10-day-old charge flips.
    const { status, body } = await impact({ agent_settings_bundle: v1, cases: [outside, inside] });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      agent_id: 'card-disputes',
      baseline: { version_id: 'v2-8-day-window', version_tag: 'v2' },
      total: 2,
      changed: 1,
      errors: 0,
    });
    expect(body.baseline.bundle_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.draft.bundle_hash).not.toBe(body.baseline.bundle_hash);
    const [changed, same] = body.cases;
    expect(same).toEqual({ id: 'inside-window', status: 'same', turns_run: 1, changes: [] });
    expect(changed.status).toBe('changed');
    expect(changed.changes).toHaveLength(1);
    const turn = changed.changes[0];
    expect(turn.turn).toBe(0);
    expect(turn.message).toBe(outside.messages[0]);
    expect(turn.before.trace.decision).toBe('block_with_explanation');
    expect(turn.after.trace.decision).not.toBe('block_with_explanation');
    expect(turn.differences[0]).toEqual({
      kind: 'decision',
      subject: '',
      before: 'block_with_explanation',
      after: turn.after.trace.decision,
    });
    expect(turn.differences).toContainEqual({
      kind: 'rule',
      subject: 'DISPUTE_WINDOW',
      before: 'blocked',
      after: 'allowed',
    });
    // What an expectation reads comes with each side: the reply and the values held.
    expect(turn.before.reply).toContain('within 8 days');
    expect(turn.after.trace.entities).toMatchObject({ 'transaction.transaction-amount': 120 });
  });

  it("replays each case with its own clock: the same words flip only where the date's age crosses the window", async () => {
    const dated = (id: string, clock: string) => ({
      id,
      clock,
      messages: ['I want to dispute a charge of $120 at Coffee Corner on 2025-03-05'],
    });
    const { body } = await impact({
      agent_settings_bundle: v1,
      cases: [
        dated('ten-days-later', '2025-03-15T12:00:00Z'),
        dated('two-days-later', '2025-03-07T12:00:00Z'),
      ],
    });
    expect(body.cases.map((c: { status: string }) => c.status)).toEqual(['changed', 'same']);
  });

  it('answers no change for a draft equal to the baseline, and compares with a pinned version', async () => {
    const same = await impact({ agent_settings_bundle: active, cases: [outside, inside] });
    expect(same.status).toBe(200);
    expect(same.body.changed).toBe(0);
    expect(same.body.draft.bundle_hash).toBe(same.body.baseline.bundle_hash);
    const pinned = await impact({
      agent_settings_bundle: v1,
      version_id: 'v1-30-day-window',
      cases: [outside],
    });
    expect(pinned.body.baseline.version_id).toBe('v1-30-day-window');
    expect(pinned.body.changed).toBe(0);
  });

  it('refuses bad input with a readable 4xx', async () => {
    const noCases = await impact({ agent_settings_bundle: v1, cases: [] });
    expect(noCases.status).toBe(422);
    expect(noCases.body.detail[0].loc).toEqual(['body', 'cases']);

    const badClock = await impact({ agent_settings_bundle: v1, cases: [{ ...outside, clock: 'yesterday' }] });
    expect(badClock.status).toBe(422);
    expect(badClock.body.detail[0].loc).toEqual(['body', 'cases', 0, 'clock']);

    const extra = await impact({ agent_settings_bundle: v1, cases: [{ ...outside, api_key: 'secret' }] });
    expect(extra.status).toBe(422);

    const broken = await impact({ agent_settings_bundle: { agent_tools: 'nope' }, cases: [outside] });
    expect(broken.status).toBe(422);
    expect(broken.body.message).toMatch(/^Invalid agent settings bundle/);
    expect(broken.body.issues.length).toBeGreaterThan(0);

    const unknown = await impact(
      { agent_settings_bundle: v1, cases: [outside] },
      ROOT,
      '/reference/v1/agents/nope/impact',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Agent not found: nope');

    const version = await impact({ agent_settings_bundle: v1, version_id: 'v9', cases: [outside] });
    expect(version.status).toBe(404);

    const foreign = await impact(
      { agent_settings_bundle: v1, cases: [outside] },
      CARDS_ONLY,
      '/reference/v1/agents/flight-changes/impact',
    );
    expect(foreign.status).toBe(403);

    const noKey = await call(service, 'POST', PATH, {
      key: null,
      body: { agent_settings_bundle: v1, cases: [outside] },
    });
    expect(noKey.status).toBe(401);
  });

  it('bounds the work one request may ask for', async () => {
    const many = Array.from({ length: IMPACT_LIMITS.cases + 1 }, (_, i) => ({ ...inside, id: `c${i}` }));
    const tooManyCases = await impact({ agent_settings_bundle: v1, cases: many });
    expect(tooManyCases.status).toBe(422);
    expect(tooManyCases.body.detail[0].loc).toEqual(['body', 'cases']);

    const long = {
      ...inside,
      messages: Array.from({ length: IMPACT_LIMITS.messagesPerCase + 1 }, () => 'hi'),
    };
    expect((await impact({ agent_settings_bundle: v1, cases: [long] })).status).toBe(422);

    // Each case within its bound, the sum over them not.
    const full = { ...inside, messages: Array.from({ length: IMPACT_LIMITS.messagesPerCase }, () => 'hi') };
    const cases = Array.from(
      { length: Math.ceil(IMPACT_LIMITS.messages / IMPACT_LIMITS.messagesPerCase) + 1 },
      (_, i) => ({ ...full, id: `c${i}` }),
    );
    const before = turnsRun;
    const tooMany = await impact({ agent_settings_bundle: v1, cases });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].msg).toBe(
      `at most ${IMPACT_LIMITS.messages} messages in all the cases together`,
    );
    expect(turnsRun).toBe(before);

    const huge = await impact({
      agent_settings_bundle: { ...v1, padding: 'x'.repeat(3 * 1024 * 1024) },
      cases: [inside],
    });
    expect(huge.status).toBe(413);
  });

  it('replays a suite at the bounds whole: 1,000 cases of 5 messages', async () => {
    expect(IMPACT_LIMITS.cases).toBeGreaterThanOrEqual(1_000);
    const cases = Array.from({ length: 1_000 }, (_, i) => ({
      id: `c${i}`,
      clock: CLOCK,
      user_id: `cap-${i}`,
      messages: [
        'I want to dispute a charge',
        'It was a duplicate charge',
        `$${20 + i}.50`,
        `${i % 2 ? 10 : 3} days ago`,
        'yes',
      ],
    }));
    const { status, body } = await impact({ agent_settings_bundle: v1, cases });
    expect(status).toBe(200);
    expect(body.total).toBe(1_000);
    expect(body.errors).toBe(0);
    expect(body.cases.map((c: { id: string }) => c.id)).toEqual(cases.map((c) => c.id));
    expect(body.cases.every((c: { turns_run: number }) => c.turns_run === 5)).toBe(true);
    // The 10-day-old charges are outside v2's window and inside v1's: those, and only those, change.
    expect(body.changed).toBe(500);
    expect(
      body.cases.filter((c: { status: string }) => c.status === 'changed').map((c: { id: string }) => c.id),
    ).toEqual(cases.filter((_, i) => i % 2).map((c) => c.id));
  });

  it('lists the endpoint in the OpenAPI document', async () => {
    const { body } = await call(service, 'GET', '/openapi.json');
    const op = body.paths['/reference/v1/agents/{agent_id}/impact'].post;
    expect(op.tags).toEqual(['Reference']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '413', '422']));
  });

  it('keeps answering other requests while it replays, and stops replaying when the client goes away', async () => {
    // Distinct clocks: none of these runs is in the baseline cache, so both bundles run every turn.
    const cases = Array.from({ length: 200 }, (_, i) => ({
      id: `c${i}`,
      clock: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
      messages: Array.from(
        { length: 10 },
        (_, j) => `I want to dispute a charge of $${i + j + 10} from ${j} days ago`,
      ),
    }));
    const total = cases.length * 10 * 2;
    const start = turnsRun;
    const controller = new AbortController();
    const pending = fetch(`${service.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': ROOT },
      body: JSON.stringify({ agent_settings_bundle: v1, cases }),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    while (turnsRun - start < 20) await new Promise((r) => setTimeout(r, 5));

    const health = await call(service, 'GET', '/healthz', { key: null });
    expect(health.status).toBe(200);
    expect(turnsRun - start).toBeLessThan(total); // answered mid-replay

    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 200));
    const afterAbort = turnsRun - start;
    await new Promise((r) => setTimeout(r, 500));
    expect(turnsRun - start).toBe(afterAbort);
    expect(afterAbort).toBeLessThan(total / 2);
    expect(service.logs.some((l) => l.includes('"status":499') && l.includes('/impact'))).toBe(true);
  });
});
