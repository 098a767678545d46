import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, call, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

const OLD_DISPUTE = 'I want to dispute a duplicate charge of $120 from 10 days ago';

async function agentBundle(version: string): Promise<Record<string, unknown>> {
  const { body } = await call(service, 'GET', `/reference/v1/agents/card-disputes/bundle?version=${version}`);
  return body.bundle;
}

describe('POST /v1/messaging/messages', () => {
  it("answers the agent's reply with its ids, suggestions and the trace when asked", async () => {
    const task = (await createTask(service, { user_id: 'bob' })).body;
    const { status, body } = await sendMessage(service, task.id, 'I want to dispute a charge');
    expect(status).toBe(200);
    expect(body.id).toMatch(/\S/);
    expect(body.task_id).toBe(task.id);
    expect(body.text).toMatch(/\S/);
    expect(Array.isArray(body.followup_suggestions)).toBe(true);
    expect(body.sender).toEqual({ id: 'card-disputes', type: 'agent' });
    expect(body.receiver).toEqual({ id: 'bob', type: 'user' });
    expect(body.cards).toEqual([]);
    expect(body.user_message).toMatchObject({ text: 'I want to dispute a charge' });
    expect(body.user_message.id).not.toBe(body.id);
    expect(body.bundle_hash).toBeNull();
    expect(body.version_id).toBe('v2-8-day-window');
    expect(body.trace_info.interaction_id).toBe(body.id);
    expect(body.trace_info.intent).toBe('dispute_charge');
    for (const field of [
      'entities',
      'parameters_extracted',
      'rules_evaluated',
      'tools_considered',
      'tools_invoked',
      'decision',
    ]) {
      expect(body.trace_info).toHaveProperty(field);
    }
    expect(body.trace_info.latency.unit).toBe('ms');
  });

  it('leaves trace_info out unless include_trace is true', async () => {
    const task = (await createTask(service)).body;
    const none = await sendMessage(service, task.id, 'hello', {}, '');
    expect(none.status).toBe(200);
    expect(none.body).not.toHaveProperty('trace_info');
    const off = await sendMessage(service, task.id, 'hello', {}, '?include_trace=false');
    expect(off.body).not.toHaveProperty('trace_info');
    const bad = await sendMessage(service, task.id, 'hello', {}, '?include_trace=maybe');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'include_trace']);
  });

  it('requires type "message" and a non-empty text', async () => {
    const task = (await createTask(service)).body;
    const wrongType = await call(service, 'POST', '/v1/messaging/messages', {
      body: { type: 'note', task_id: task.id, text: 'hi' },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.detail[0].loc).toEqual(['body', 'type']);
    const empty = await call(service, 'POST', '/v1/messaging/messages', {
      body: { type: 'message', task_id: task.id, text: '' },
    });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body', 'text']);
    const missing = await call(service, 'POST', '/v1/messaging/messages', { body: { type: 'message' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.task_id', 'body.text']),
    );
  });

  it('answers 404 with the spec body for an unknown task', async () => {
    const { status, body } = await sendMessage(service, 'task_missing', 'hello');
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Not Found', message: 'Task not found: task_missing' });
  });

  it("answers 403 when the key may not use the task's agent", async () => {
    const task = (await createTask(service, { agent_id: 'flight-changes' })).body;
    const { status, body } = await call(service, 'POST', '/v1/messaging/messages', {
      key: CARDS_ONLY,
      body: { type: 'message', task_id: task.id, text: 'hello' },
    });
    expect(status).toBe(403);
    expect(body.error).toBe('Forbidden');
  });

  it("follows the task's pinned version", async () => {
    const v2 = (await createTask(service)).body;
    const v1 = (await createTask(service, { version_tag: 'v1' })).body;
    const blocked = await sendMessage(service, v2.id, OLD_DISPUTE);
    const allowed = await sendMessage(service, v1.id, OLD_DISPUTE);
    expect(blocked.body.version_id).toBe('v2-8-day-window');
    expect(allowed.body.version_id).toBe('v1-30-day-window');
    expect(blocked.body.trace_info.decision).toBe('block_with_explanation');
    expect(allowed.body.trace_info.decision).not.toBe('block_with_explanation');
  });

  it('pins one message with `agent` and goes back to the task pin after it', async () => {
    const task = (await createTask(service)).body;
    const pinned = await sendMessage(service, task.id, 'hello', { agent: { version_tag: 'v1' } });
    expect(pinned.status).toBe(200);
    expect(pinned.body.version_id).toBe('v1-30-day-window');
    const next = await sendMessage(service, task.id, 'hello again');
    expect(next.body.version_id).toBe('v2-8-day-window');
    const unknown = await sendMessage(service, task.id, 'hello', { agent: { version_id: 'v7' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toContain('v7');
    expect(unknown.body.detail[0].loc).toEqual(['body', 'agent', 'version_id']);
    const otherAgent = await sendMessage(service, task.id, 'hello', {
      agent: { agent_id: 'flight-changes' },
    });
    expect(otherAgent.status).toBe(422);
    expect(otherAgent.body.message).toContain('flight-changes');
  });

  it('runs a valid bundle for that turn only and records its hash', async () => {
    const task = (await createTask(service)).body;
    const v1Bundle = await agentBundle('v1');
    const withBundle = await sendMessage(service, task.id, OLD_DISPUTE, { agent_settings_bundle: v1Bundle });
    expect(withBundle.status).toBe(200);
    expect(withBundle.body.bundle_hash).toMatch(/^[0-9a-f]{16,}$/);
    expect(withBundle.body.trace_info.decision).not.toBe('block_with_explanation');

    const again = await sendMessage(service, task.id, 'hello', { agent_settings_bundle: v1Bundle });
    expect(again.body.bundle_hash).toBe(withBundle.body.bundle_hash);

    const other = (await createTask(service)).body;
    const without = await sendMessage(service, other.id, OLD_DISPUTE);
    expect(without.body.bundle_hash).toBeNull();
    expect(without.body.trace_info.decision).toBe('block_with_explanation');
  });

  it('rejects an invalid bundle with 422 and every issue, before running anything', async () => {
    const task = (await createTask(service)).body;
    const bundle = {
      parameters: [
        { code: 'amount', type: 'numeric', usage: 'input', description: 'a' },
        { code: 'amount', type: 'numeric', usage: 'input', description: 'b' },
      ],
      agent_tools: [{ code: 'DO_IT', name: 'Do it', config: { params: { required: ['no-such-param'] } } }],
    };
    const { status, body } = await sendMessage(service, task.id, 'hello', { agent_settings_bundle: bundle });
    expect(status).toBe(422);
    expect(body.error).toBe('Unprocessable Entity');
    expect(body.message).toMatch(/Invalid agent settings bundle/);
    expect(body.issues.length).toBeGreaterThanOrEqual(2);
    for (const issue of body.issues) {
      expect(Object.keys(issue).sort()).toEqual(['code', 'loc', 'message', 'severity']);
    }
    expect(
      body.detail.every(
        (d: { loc: unknown[] }) => d.loc[0] === 'body' && d.loc[1] === 'agent_settings_bundle',
      ),
    ).toBe(true);
    const traces = await call(service, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`);
    expect(traces.body).toEqual([]);
  });

  it('refuses a bundle that compares the dispute window with a word, at the operand', async () => {
    const task = (await createTask(service)).body;
    const bundle = await agentBundle('v2');
    const tools = bundle.agent_tools as { rules: { pre: { constraint: { when: { value: unknown } }[] } } }[];
    tools[0]!.rules.pre.constraint[0]!.when.value = 'thirty';
    const { status, body } = await sendMessage(service, task.id, OLD_DISPUTE, {
      agent_settings_bundle: bundle,
    });
    expect(status).toBe(422);
    expect(body.issues).toEqual([
      expect.objectContaining({
        code: 'operand_type_mismatch',
        severity: 'error',
        loc: ['agent_tools', 0, 'rules', 'pre', 'constraint', 0, 'when', 'value'],
      }),
    ]);
  });

  it('applies concurrent messages to one task in order, each turn seeing the previous one', async () => {
    const task = (await createTask(service)).body;
    const texts = Array.from({ length: 8 }, (_, i) => `message number ${i + 1}`);
    const replies = await Promise.all(texts.map((text) => sendMessage(service, task.id, text)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const traces = (await call(service, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`)).body;
    expect(traces).toHaveLength(8);
    expect(new Set(traces.map((t: { interaction_id: string }) => t.interaction_id))).toEqual(
      new Set(replies.map((r) => r.body.id)),
    );
  });
});
