/**
 * A turn's state comes from the bundle it runs with and the conversation, nothing else: a client
 * bundle decides the same on a task of every agent, and a task that switches bundles keeps only
 * the values the user gave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, comparable, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

/** A bundle written for none of the example agents; its own profile says the identity is verified. */
const CLIENT_BUNDLE = {
  general_settings: { name: 'Gift Card Desk' },
  parameters: [
    { code: 'refund-amount', type: 'numeric', usage: 'input', description: 'Amount to refund, in dollars' },
    { code: 'identity-verified', type: 'boolean', usage: 'output', description: 'Identity verified' },
    { code: 'holder-name', type: 'string', usage: 'output', description: 'Card holder' },
  ],
  entities: [{ name: 'holder', type: 'user-profile', parameters: ['identity-verified', 'holder-name'] }],
  integrations: [
    {
      code: 'holder-api',
      type: 'API',
      settings: {
        response_mapping: { 'identity-verified': 'me.verified', 'holder-name': 'me.name' },
        test_curl_response: { me: { verified: true, name: 'Ada Gift' } },
      },
    },
    { code: 'refund-api', type: 'API', settings: { test_curl_response: { status: 'ok' } } },
  ],
  rules: [
    {
      code: 'VERIFIED_ABOVE_300',
      applied_to: ['REFUND_GIFT_CARD'],
      when: {
        all: [
          { method: 'param_value', params: 'refund-amount', operation: 'gt', value: 300 },
          { method: 'param_value', params: 'identity-verified', operation: 'eq', value: false },
        ],
      },
      then: { action: 'BLOCK', message: 'Refunds above $300 need a verified identity.' },
    },
  ],
  agent_tools: [
    {
      code: 'REFUND_GIFT_CARD',
      name: 'Refund a gift card',
      when_to_use: 'The holder wants a gift card refunded',
      main_tool: true,
      config: { params: { required: ['refund-amount'] } },
      integrations: [{ code: 'refund-api' }],
    },
  ],
};
const MESSAGE = 'Please refund my gift card, $450';

async function agentIds(): Promise<string[]> {
  const { body } = await call(service, 'GET', '/reference/v1/agents');
  return (body.agents as { id: string }[]).map((a) => a.id);
}

describe('a client bundle runs with nothing from the task’s agent', () => {
  it('decides identically on a task of every agent', async () => {
    const ids = await agentIds();
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const traces: Record<string, unknown>[] = [];
    for (const agent_id of ids) {
      const task = (await createTask(service, { agent_id })).body;
      const { status, body } = await sendMessage(service, task.id, MESSAGE, {
        agent_settings_bundle: CLIENT_BUNDLE,
      });
      expect(status).toBe(200);
      traces.push(comparable(body.trace_info));
    }
    const first = traces[0]!;
    expect(first.decision).toBe('proceed');
    expect(first.entities).toEqual({
      'refund-amount': 450,
      'holder.identity-verified': true,
      'holder.holder-name': 'Ada Gift',
    });
    expect(first.value_sources).toEqual({
      'refund-amount': 'conversation',
      'identity-verified': 'profile:holder-api',
      'holder-name': 'profile:holder-api',
    });
    for (const t of traces.slice(1)) expect(t).toEqual(first);
  });

  it('a task that switches bundles keeps only what the conversation produced, and says so', async () => {
    const task = (await createTask(service, { agent_id: 'card-disputes' })).body;
    const own = await sendMessage(service, task.id, 'dispute a $45 charge from yesterday');
    expect(own.body.trace_info.entities['user-profile.card-last-four']).toBe('4242');
    expect(own.body.trace_info.value_sources).toMatchObject({
      'transaction-amount': 'conversation',
      'card-last-four': 'profile:user-profile-api',
      'days-since-transaction': 'computed',
    });

    const switched = (await sendMessage(service, task.id, MESSAGE, { agent_settings_bundle: CLIENT_BUNDLE }))
      .body.trace_info;
    expect(switched.bundle_change.kept).toEqual(['transaction-date', 'transaction-amount']);
    expect(switched.bundle_change.dropped).toEqual(
      expect.arrayContaining(['card-last-four', 'identity-verified', 'days-since-transaction']),
    );
    expect(switched.decisions[0]).toMatchObject({ type: 'bundle_changed' });
    expect(JSON.stringify(switched)).not.toContain('4242');
    expect(switched.entities['holder.identity-verified']).toBe(true);
    expect(switched.decision).toBe('proceed');

    // Back on the agent's own bundle: its profile is loaded again, the client's is gone.
    const back = (await sendMessage(service, task.id, 'show me my recent transactions')).body.trace_info;
    expect(back.bundle_change.dropped).toEqual(expect.arrayContaining(['holder-name']));
    expect(back.entities).not.toHaveProperty('holder-name');
    expect(back.entities['user-profile.card-last-four']).toBe('4242');
    expect(back.entities['refund-amount']).toBe(450);
  });
});
