/**
 * Bundles built to make the service work hard, sent over real HTTP: each is answered promptly
 * (a 200 or a readable 422), and the service keeps answering others meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
let taskId: string;

beforeAll(async () => {
  service = await startService();
  taskId = (await createTask(service)).body.id;
});
afterAll(() => service.dispose());

const tool = (extra: Record<string, unknown> = {}) => ({
  code: 'DISPUTE_CHARGE',
  name: 'Dispute a charge',
  main_tool: true,
  ...extra,
});

describe('hostile bundles', () => {
  it('a rule message of "{{" and 4,000 spaces is sent and answered like any other', async () => {
    const bundle = {
      parameters: [{ code: 'amount', type: 'numeric' }],
      agent_tools: [
        tool({
          rules: {
            pre: { constraint: [{ when: null, then: { action: 'TEXT', message: `{{${' '.repeat(4000)}` } }] },
          },
        }),
      ],
    };
    const [sent, health] = await Promise.all([
      sendMessage(service, taskId, 'I want to dispute a charge', { agent_settings_bundle: bundle }),
      call(service, 'GET', '/healthz'),
    ]);
    expect(health.status).toBe(200);
    expect(sent.status).toBe(200);
    expect(sent.body.text).toContain(`{{${' '.repeat(4000)}`);
  });

  it('a 50 KB near-miss name is reported as unknown, without a hint, in a 422', async () => {
    const code = 'a'.repeat(25_000);
    const bundle = {
      parameters: [{ code, type: 'string' }],
      agent_tools: [tool({ config: { params: { required: [`${code.slice(1)}b`] } } })],
    };
    const { status, body } = await sendMessage(service, taskId, 'hello', { agent_settings_bundle: bundle });
    expect(status).toBe(422);
    expect(body.issues.map((i: { code: string }) => i.code)).toEqual(['unknown_parameter']);
    expect(body.issues[0].message).not.toContain('Did you mean');
  });

  it('2,000 formulas named like prototype members: the turn asks for what it needs', async () => {
    const names = Object.getOwnPropertyNames(Object.prototype);
    const bundle = {
      parameters: [
        { code: 'amount', type: 'numeric' },
        { code: 'reference', type: 'string' },
        ...Array.from({ length: 2000 }, (_, i) => ({
          code: i < names.length ? names[i] : `${names[i % names.length]}-${i}`,
          type: 'numeric',
          usage: 'computed',
          computation: `{{reference}} + ${i}`,
        })),
      ],
      agent_tools: [tool({ config: { params: { required: ['reference', 'amount'] } } })],
    };
    const { status, body } = await sendMessage(service, taskId, 'I want to dispute a charge', {
      agent_settings_bundle: bundle,
    });
    expect(status).toBe(200);
    expect(body.trace_info.decision).toBe('request_information');
    expect(body.text).toBe('What is the reference?');
  });

  it('a number beyond JSON (1e309) is a 422 at its exact place, and hashes apart from null', async () => {
    const text = (max: string) =>
      `{"type":"message","task_id":"${taskId}","text":"hello","agent_settings_bundle":{"general_settings":{"name":"A","max_turns":${max}}}}`;
    const infinite = await call(service, 'POST', '/v1/messaging/messages', {
      rawBody: text('1e309'),
      headers: { 'content-type': 'application/json' },
    });
    expect(infinite.status).toBe(422);
    const issue = (infinite.body as { issues: { code: string; loc: unknown[] }[] }).issues[0]!;
    expect(issue).toMatchObject({ code: 'non_finite_number', loc: ['general_settings', 'max_turns'] });
    // The same bundle with null is a different bundle: it is not served the cached 422.
    const withNull = await call(service, 'POST', '/v1/messaging/messages', {
      rawBody: text('null'),
      headers: { 'content-type': 'application/json' },
    });
    expect((withNull.body as { issues?: { code: string }[] }).issues?.map((i) => i.code) ?? []).not.toContain(
      'non_finite_number',
    );
  });

  it('a turn that would take too much work is a 422 bundle_too_complex', async () => {
    // Every global rule applies to every tool, and the main tool runs every other tool first.
    const count = 1500;
    const bundle = {
      rules: Array.from({ length: count }, (_, i) => ({
        code: `G${i}`,
        when: null,
        then: { action: 'TEXT', message: 'noted' },
      })),
      agent_tools: [
        tool({
          rules: {
            pre: {
              constraint: Array.from({ length: count }, (_, i) => ({
                when: null,
                then: { action: 'ACTIVATE_SUB_TOOL', settings: { tool: `SUB_${i}` } },
              })),
            },
          },
        }),
        ...Array.from({ length: count }, (_, i) => ({ code: `SUB_${i}` })),
      ],
    };
    const { status, body } = await sendMessage(service, taskId, 'I want to dispute a charge', {
      agent_settings_bundle: bundle,
    });
    expect(status).toBe(422);
    expect(body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'agent_settings_bundle'], type: 'bundle_too_complex' }),
    ]);
    expect(body.message).toMatch(/too complex: running the turn took more than 2,000,000 steps/);
  });
});
