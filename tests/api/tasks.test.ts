import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, call, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

describe('POST /v1/messaging/tasks', () => {
  it('creates a task with the welcome message, title and starter suggestions of the active version', async () => {
    const { status, body } = await createTask(service, { user_id: 'alice' });
    expect(status).toBe(200);
    expect(body.id).toMatch(/\S/);
    expect(body.task_id).toBe(body.id);
    expect(body.user_id).toBe('alice');
    expect(body.agent_id).toBe('card-disputes');
    expect(body.title).toMatch(/\S/);
    expect(body.welcome_message).toContain('Card Disputes Assistant');
    expect(Array.isArray(body.followup_suggestions)).toBe(true);
    expect(body.followup_suggestions.every((s: unknown) => typeof s === 'string')).toBe(true);
    expect(body.task_origin_type).toBe('web-widget');
    expect(body.version_id).toBe('v2-8-day-window');
    expect(body.version_tag).toBe('v2');
    expect(Number.isNaN(Date.parse(body.created_at))).toBe(false);
  });

  it('records the origin given', async () => {
    const { body } = await createTask(service, { task_origin_type: 'api' });
    expect(body.task_origin_type).toBe('api');
  });

  it('pins a task by version_id or by version_tag', async () => {
    const byId = await createTask(service, { version_id: 'v1-30-day-window' });
    expect(byId.body).toMatchObject({ version_id: 'v1-30-day-window', version_tag: 'v1' });
    const byTag = await createTask(service, { agent_id: 'flight-changes', version_tag: 'v1' });
    expect(byTag.body).toMatchObject({ version_id: 'v1-launch-fees', version_tag: 'v1' });
  });

  it('runs the task on the reference_clock given (reference-only extension) and echoes it', async () => {
    const { status, body } = await createTask(service, { reference_clock: '2025-03-15T12:00:00+02:00' });
    expect(status).toBe(200);
    expect(body.reference_clock).toBe('2025-03-15T10:00:00.000Z');
    expect(Date.parse(body.created_at)).toBeGreaterThan(Date.parse('2026-01-01'));
    const turn = await sendMessage(service, body.id, 'dispute a charge of $120 from 10 days ago');
    expect(turn.body.trace_info.entities['transaction.transaction-date']).toBe('2025-03-05');
  });

  it('answers 422 for a reference_clock that is not an ISO date-time', async () => {
    const { status, body } = await createTask(service, { reference_clock: 'last tuesday' });
    expect(status).toBe(422);
    expect(JSON.stringify(body.detail)).toContain('reference_clock');
  });

  it('answers 422 for a reference_clock it could not answer back (beyond year 9999 in UTC)', async () => {
    for (const clock of ['9999-12-31T23:59:59-23:59', '0000-01-01T00:00:00+00:01']) {
      const { status, body } = await createTask(service, { reference_clock: clock });
      expect({ clock, status }).toEqual({ clock, status: 422 });
      expect(body.detail[0]).toMatchObject({ loc: ['body', 'reference_clock'] });
      expect(body.detail[0].msg).toMatch(/years 0000 to 9999/);
    }
    const latest = await createTask(service, { reference_clock: '9999-12-31T23:59:59Z' });
    expect(latest.status).toBe(200);
    const task = await call(service, 'GET', `/reference/v1/tasks/${latest.body.id}`);
    expect(task.body.reference_clock).toBe('9999-12-31T23:59:59.000Z');
  });

  it('answers 422 naming an unknown agent', async () => {
    const { status, body } = await createTask(service, { agent_id: 'no-such-agent' });
    expect(status).toBe(422);
    expect(body.error).toBe('Unprocessable Entity');
    expect(body.message).toBe('Unknown agent: no-such-agent');
    expect(body.detail).toEqual([
      { loc: ['body', 'agent_id'], msg: 'Unknown agent: no-such-agent', type: 'unknown_agent' },
    ]);
  });

  it('answers 422 naming an unknown version or tag', async () => {
    const byId = await createTask(service, { version_id: 'v9' });
    expect(byId.status).toBe(422);
    expect(byId.body.message).toContain('v9');
    expect(byId.body.detail[0].loc).toEqual(['body', 'version_id']);
    const byTag = await createTask(service, { version_tag: 'v9-tag' });
    expect(byTag.status).toBe(422);
    expect(byTag.body.message).toContain('v9-tag');
    expect(byTag.body.detail[0].loc).toEqual(['body', 'version_tag']);
  });

  it('answers 422 when version_id and version_tag disagree', async () => {
    const { status, body } = await createTask(service, { version_id: 'v1-30-day-window', version_tag: 'v2' });
    expect(status).toBe(422);
    expect(body.detail[0].type).toBe('version_mismatch');
  });

  it('answers 422 listing every missing required field', async () => {
    const { status, body } = await call(service, 'POST', '/v1/messaging/tasks', { body: {} });
    expect(status).toBe(422);
    expect(body.error).toBe('Unprocessable Entity');
    expect(body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'agent_id'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'user_id'], msg: 'Field required', type: 'missing' },
      ]),
    );
  });

  it('answers 401 with the spec body without a key or with an unknown key, on either header', async () => {
    const missing = await createTask(service, {}, null);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key' });
    const wrong = await createTask(service, {}, 'not-a-key');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key' });
    const aui = await call(service, 'POST', '/v1/messaging/tasks', {
      keyHeader: 'x-aui-api-key',
      body: { agent_id: 'card-disputes', user_id: 'u' },
    });
    expect(aui.status).toBe(200);
  });

  it('answers 403 when the key may not use the agent', async () => {
    const { status, body } = await createTask(service, { agent_id: 'flight-changes' }, CARDS_ONLY);
    expect(status).toBe(403);
    expect(body.error).toBe('Forbidden');
    expect(body.message).toBe('This API key may not use agent: flight-changes');
    expect(body.detail).toHaveLength(1);
    const allowed = await createTask(service, { agent_id: 'card-disputes' }, CARDS_ONLY);
    expect(allowed.status).toBe(200);
  });
});
