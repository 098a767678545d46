import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, ROOT, call, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

const OLD_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';
const whatIf = (body: unknown, key: string = ROOT) =>
  call(service, 'POST', '/reference/v1/what-if', { key, body });

/** A task whose one turn is the blocked 10-day dispute. */
async function blockedTurn(body: Record<string, unknown> = {}) {
  const task = (await createTask(service, body)).body;
  const sent = await sendMessage(service, task.id, OLD_DISPUTE);
  expect(sent.body.trace_info.decision).toBe('block_with_explanation');
  return {
    taskId: task.id as string,
    interactionId: sent.body.trace_info.interaction_id as string,
    sent: sent.body,
  };
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

describe('POST /reference/v1/what-if', () => {
  it('with no edits answers the stored turn, not as a conversation turn, and stores nothing', async () => {
    const { taskId, interactionId, sent } = await blockedTurn();
    const { status, body } = await whatIf({ task_id: taskId, interaction_id: interactionId });
    expect(status).toBe(200);
    expect(body.not_a_conversation_turn).toBe(true);
    expect(body.recorded.decision).toBe('block_with_explanation');
    expect(body.what_if.decision).toBe('block_with_explanation');
    expect(body.what_if.reply).toBe(body.recorded.reply);
    expect(body.differences).toEqual([]);
    expect(body.bundle_source).toEqual({
      agent_id: 'card-disputes',
      version_id: 'v2-8-day-window',
      bundle_hash: null,
    });
    // The values a what-if may change, typed for an editor, with the turn's values.
    expect(body.parameters).toContainEqual({ code: 'transaction-amount', type: 'numeric', value: 120 });
    expect(body.parameters).toContainEqual(
      expect.objectContaining({ code: 'transaction-date', type: 'date', value: daysAgo(10) }),
    );
    expect(body.parameters).toContainEqual(
      expect.objectContaining({ code: 'dispute-reason', values: expect.any(Array) }),
    );
    const { latency: _l, ...stored } = sent.trace_info;
    expect(body.what_if.trace.rules_evaluated).toEqual(stored.rules_evaluated);
    expect(body.engine_input).toBeUndefined();
    const withInput = await whatIf({
      task_id: taskId,
      interaction_id: interactionId,
      include_engine_input: true,
    });
    expect(withInput.body.engine_input.clock).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(withInput.body.engine_input.user_id).toBe('user-1');
    expect(withInput.body.engine_input.state_before).toEqual(expect.any(Object));
    expect(withInput.body.engine_input.recorded.interaction_id).toBe(interactionId);
    const traces = await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info`, { key: ROOT });
    expect(traces.body).toHaveLength(1);
  });

  it('decides the turn again with a date inside the window, and with a $620 amount', async () => {
    const { taskId, interactionId } = await blockedTurn();
    const inside = await whatIf({
      task_id: taskId,
      interaction_id: interactionId,
      edits: [{ code: 'transaction-date', value: daysAgo(3) }],
    });
    expect(inside.status).toBe(200);
    expect(inside.body.what_if.decision).toBe('request_information');
    expect(inside.body.differences).toContainEqual({
      kind: 'rule',
      subject: 'DISPUTE_WINDOW',
      before: 'blocked',
      after: 'allowed',
    });
    const identity = await whatIf({
      task_id: taskId,
      interaction_id: interactionId,
      edits: [
        { code: 'transaction-date', value: daysAgo(3) },
        { code: 'transaction-amount', value: 620 },
      ],
    });
    expect(identity.body.what_if.decision).toBe('block_with_explanation');
    expect(identity.body.differences).toContainEqual({
      kind: 'rule',
      subject: 'VERIFIED_IDENTITY_ABOVE_500',
      before: 'allowed',
      after: 'blocked',
    });
  });

  it('lists why not on request: the 8-day boundary and the window of 10 days', async () => {
    const { taskId, interactionId } = await blockedTurn();
    const { status, body } = await whatIf({ task_id: taskId, interaction_id: interactionId, why_not: true });
    expect(status).toBe(200);
    const summaries = body.why_not.items.map((i: { summary: string }) => i.summary);
    expect(summaries).toContain(
      `transaction-date on or after ${daysAgo(8)}, i.e. ≤ 8 days ago (now ${daysAgo(10)})`,
    );
    expect(summaries).toContain('DISPUTE_WINDOW with a window of 10 days or more (now 8)');
  });

  it('decides a turn that ran with a client bundle with that bundle', async () => {
    const v1 = (
      await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle?version=v1', { key: ROOT })
    ).body.bundle;
    const task = (await createTask(service)).body;
    const sent = await sendMessage(service, task.id, OLD_DISPUTE, { agent_settings_bundle: v1 });
    expect(sent.body.trace_info.decision).toBe('request_information');
    const { body } = await whatIf({ task_id: task.id, interaction_id: sent.body.trace_info.interaction_id });
    expect(body.what_if.decision).toBe('request_information');
    expect(body.differences).toEqual([]);
    expect(body.bundle_source.bundle_hash).toBe(sent.body.bundle_hash);
  });

  it('refuses bad input with readable 4xx answers', async () => {
    const { taskId, interactionId } = await blockedTurn();
    const unknownParam = await whatIf({
      task_id: taskId,
      interaction_id: interactionId,
      edits: [{ code: 'no-such-param', value: 1 }],
    });
    expect(unknownParam.status).toBe(422);
    expect(unknownParam.body.message).toContain('no parameter "no-such-param"');
    expect(unknownParam.body.detail[0].loc).toEqual(['body', 'edits', 0, 'code']);

    const badShape = await whatIf({ task_id: taskId, interaction_id: interactionId, edits: [{ code: 'x' }] });
    expect(badShape.status).toBe(422);
    const tooMany = await whatIf({
      task_id: taskId,
      interaction_id: interactionId,
      edits: Array.from({ length: 65 }, (_, i) => ({ code: `p${i}`, value: i })),
    });
    expect(tooMany.status).toBe(422);

    const noTask = await whatIf({ task_id: 'nope', interaction_id: interactionId });
    expect(noTask.status).toBe(404);
    expect(noTask.body.message).toContain('nope');
    const noTurn = await whatIf({ task_id: taskId, interaction_id: 'nope' });
    expect(noTurn.status).toBe(404);
  });

  it('needs a key, and a key limited to other agents may not use the task', async () => {
    const flights = (await createTask(service, { agent_id: 'flight-changes' })).body;
    const sent = await sendMessage(service, flights.id, 'cancel my flight ABC123');
    const body = { task_id: flights.id, interaction_id: sent.body.trace_info.interaction_id };
    expect((await call(service, 'POST', '/reference/v1/what-if', { key: null, body })).status).toBe(401);
    expect((await whatIf(body, CARDS_ONLY)).status).toBe(403);
    expect((await whatIf(body, ROOT)).status).toBe(200);
  });
});
