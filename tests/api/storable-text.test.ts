/**
 * Text is text on every store: a NUL character (which PostgreSQL refuses) or a lone surrogate
 * (which both stores would silently replace) in any text field, key, path or query is a 422
 * naming the place, never a 500 nor a changed text. Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
let taskId: string;
let interactionId: string;
beforeAll(async () => {
  service = await startService();
  taskId = (await createTask(service)).body.id;
  interactionId = (await sendMessage(service, taskId, 'I want to dispute a charge')).body.id;
});
afterAll(() => service.dispose());

const bundle = (message: string) => ({
  parameters: [{ code: 'amount', type: 'numeric' }],
  agent_tools: [
    {
      code: 'DISPUTE_CHARGE',
      name: 'Dispute a charge',
      main_tool: true,
      rules: { pre: { constraint: [{ when: null, then: { action: 'TEXT', message } }] } },
    },
  ],
});

/** Every text field of every request that stores or looks up text, with `bad` put in it. */
function requests(bad: string): [string, string, Record<string, unknown>, (string | number)[]][] {
  const task = { agent_id: 'card-disputes', user_id: 'u' };
  const send = { type: 'message', task_id: taskId, text: 'hello' };
  const rerun = { task_id: taskId, interaction_id: interactionId, text: 'hello' };
  const cases = [{ id: 'c', clock: '2025-03-15T10:00:00Z', messages: ['hello'] }];
  return [
    ['POST', '/v1/messaging/tasks', { ...task, agent_id: bad }, ['agent_id']],
    ['POST', '/v1/messaging/tasks', { ...task, user_id: `u${bad}` }, ['user_id']],
    ['POST', '/v1/messaging/tasks', { ...task, task_origin_type: `web${bad}` }, ['task_origin_type']],
    ['POST', '/v1/messaging/tasks', { ...task, version_tag: `v1${bad}` }, ['version_tag']],
    ['POST', '/v1/messaging/tasks', { ...task, version_id: `x${bad}` }, ['version_id']],
    ['POST', '/v1/messaging/messages', { ...send, text: `I want to dispute ${bad}` }, ['text']],
    ['POST', '/v1/messaging/messages', { ...send, task_id: `${taskId}${bad}` }, ['task_id']],
    ['POST', '/v1/messaging/messages', { ...send, agent: { version_tag: bad } }, ['agent', 'version_tag']],
    [
      'POST',
      '/v1/messaging/messages',
      { ...send, agent_settings_bundle: bundle(`Noted ${bad}`) },
      ['agent_settings_bundle', 'agent_tools', 0, 'rules', 'pre', 'constraint', 0, 'then', 'message'],
    ],
    ['POST', '/v1/messaging/messages', { ...send, context: { [`k${bad}`]: 1 } }, ['context', `k${bad}`]],
    ['POST', '/v1/messaging/messages/rerun', { ...rerun, text: bad }, ['text']],
    [
      'POST',
      '/v1/messaging/messages/rerun',
      { ...rerun, interaction_id: `${interactionId}${bad}` },
      ['interaction_id'],
    ],
    ['POST', '/v1/messaging/messages/rerun', { ...rerun, agent_id: bad }, ['agent_id']],
    ['POST', '/v1/messaging/messages/rerun', { ...rerun, version_tag: bad }, ['version_tag']],
    [
      'POST',
      '/reference/v1/validate',
      { agent_settings_bundle: bundle(bad) },
      ['agent_settings_bundle', 'agent_tools', 0, 'rules', 'pre', 'constraint', 0, 'then', 'message'],
    ],
    [
      'POST',
      '/reference/v1/agents/card-disputes/impact',
      { agent_settings_bundle: bundle('ok'), cases: [{ ...cases[0], messages: [bad] }] },
      ['cases', 0, 'messages', 0],
    ],
    [
      'POST',
      '/reference/v1/agents/card-disputes/impact',
      { agent_settings_bundle: bundle('ok'), cases: [{ ...cases[0], id: bad }] },
      ['cases', 0, 'id'],
    ],
  ];
}

describe.each([
  ['a NUL character', '\u0000'],
  ['a lone surrogate', '\ud800'],
])('%s', (_name, bad) => {
  it('in any text field of a body is a 422 at its place', async () => {
    for (const [method, path, body, loc] of requests(bad)) {
      const { status, body: answer } = await call(service, method, path, { body });
      expect({ path, loc, status }).toEqual({ path, loc, status: 422 });
      expect(answer.detail).toEqual([
        expect.objectContaining({ loc: ['body', ...loc], type: 'unstorable_text' }),
      ]);
    }
  });

  it('in a path id or a query value is a 422', async () => {
    const escaped = encodeURIComponent(bad === '\u0000' ? bad : 'x').replace('x', '%ED%A0%80');
    for (const path of [
      `/v1/messaging/tasks/${taskId}${escaped}/trace-info`,
      `/v1/messaging/tasks/${taskId}/interactions/${interactionId}${escaped}/trace-info`,
      `/v1/messaging/tasks/${taskId}/trace-info?interaction_id=${escaped}`,
      `/reference/v1/tasks/${taskId}${escaped}`,
      `/reference/v1/agents/card-disputes/bundle?version=${escaped}`,
    ]) {
      const { status } = await call(service, 'GET', path);
      expect({ path, status }).toEqual({ path, status: bad === '\u0000' ? 422 : expect.any(Number) });
      expect(status).toBeLessThan(500);
    }
    expect((await call(service, 'GET', '/healthz')).status).toBe(200);
  });
});
