/**
 * Output is budgeted like input: a small bundle that would write an enormous value or reply (a
 * value doubled again and again and printed, a value printed 100,000 times) is refused with a
 * 422 `bundle_too_complex` naming the value that grows, on every endpoint that takes a bundle,
 * with a key limited to one agent; the service stays up and keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_ONLY, call, createTask, startService, type Service } from './helpers';

let service: Service;
let taskId: string;

beforeAll(async () => {
  service = await startService();
  taskId = (await createTask(service, {}, CARDS_ONLY)).body.id;
});
afterAll(() => service.dispose());

const tool = (message: string, action = 'BLOCK') => ({
  code: 'DISPUTE_CHARGE',
  name: 'Dispute a charge',
  main_tool: true,
  rules: { pre: { constraint: [{ when: null, then: { action, message } }] } },
});

/** d0 is a 500-character text; each d_i is d_{i-1} twice; the last one is printed. */
function doubled(depth: number) {
  return {
    parameters: [
      { code: 'd-0', type: 'string', usage: 'computed', computation: `"${'a'.repeat(500)}"` },
      ...Array.from({ length: depth }, (_, i) => ({
        code: `d-${i + 1}`,
        type: 'string',
        usage: 'computed',
        computation: `concat({{d-${i}}}, {{d-${i}}})`,
      })),
    ],
    agent_tools: [tool(`{{d-${depth}}}`)],
  };
}

const printedManyTimes = {
  parameters: [{ code: 'reason', type: 'string' }],
  agent_tools: [tool('{{reason}}'.repeat(100_000))],
};

const send = (bundle: unknown, text = 'I want to dispute a charge') =>
  call(service, 'POST', '/v1/messaging/messages', {
    key: CARDS_ONLY,
    body: { type: 'message', task_id: taskId, text, agent_settings_bundle: bundle },
  });
const validate = (bundle: unknown) =>
  call(service, 'POST', '/reference/v1/validate', {
    key: CARDS_ONLY,
    body: { agent_settings_bundle: bundle },
  });
const impact = (bundle: unknown) =>
  call(service, 'POST', '/reference/v1/agents/card-disputes/impact', {
    key: CARDS_ONLY,
    body: {
      agent_settings_bundle: bundle,
      cases: [{ id: 'c', clock: '2025-03-15T10:00:00Z', messages: ['I want to dispute a charge'] }],
    },
  });

const tooComplex = (issues: { code: string; message: string }[]) =>
  issues.filter((i) => i.code === 'bundle_too_complex').map((i) => i.message);

describe('output amplification', () => {
  for (const depth of [14, 15, 16, 17, 18, 19]) {
    it(`a 500-character value doubled ${depth} times and printed: 422 on send, validate and impact`, async () => {
      const bundle = doubled(depth);
      const [sent, checked, replayed] = [await send(bundle), await validate(bundle), await impact(bundle)];
      expect(sent.status).toBe(422);
      expect(sent.body.detail).toContainEqual(expect.objectContaining({ type: 'bundle_too_complex' }));
      expect(tooComplex(sent.body.issues)).toContainEqual(expect.stringContaining(`{{d-${depth}}}`));
      expect(tooComplex(sent.body.issues)).toContainEqual(expect.stringContaining("computed value 'd-11'"));
      // Validation answers its verdict, naming the same values.
      expect(checked.status).toBe(200);
      expect(checked.body.valid).toBe(false);
      expect(tooComplex(checked.body.issues)).toEqual(tooComplex(sent.body.issues));
      expect(replayed.status).toBe(422);
      expect(tooComplex(replayed.body.issues)).toEqual(tooComplex(sent.body.issues));
      expect((await call(service, 'GET', '/healthz')).status).toBe(200);
    });
  }

  it('a value printed 100,000 times: 422 on send, validate and impact', async () => {
    const [sent, checked, replayed] = [
      await send(printedManyTimes),
      await validate(printedManyTimes),
      await impact(printedManyTimes),
    ];
    expect(sent.status).toBe(422);
    expect(tooComplex(sent.body.issues)).toEqual([
      expect.stringMatching(/fills \{\{reason\}\} 100,000 times/),
    ]);
    expect(checked.body.valid).toBe(false);
    expect(replayed.status).toBe(422);
    expect((await call(service, 'GET', '/healthz')).status).toBe(200);
  });

  it('messages that each stay in bounds but together write too much: 422 when the turn runs', async () => {
    // 45 placeholders of a value read from a message (at most 20,000 characters): under the
    // limit of one message; 100 such messages of 45 × 500 characters in one turn pass what a
    // turn may write.
    const message = '{{reason}} '.repeat(45);
    const bundle = {
      parameters: [{ code: 'reason', type: 'string' }],
      agent_tools: [
        {
          ...tool(message, 'TEXT'),
          config: { params: { required: ['reason'] } },
          rules: {
            pre: {
              constraint: Array.from({ length: 100 }, () => ({
                when: null,
                then: { action: 'TEXT', message },
              })),
            },
          },
        },
      ],
    };
    expect((await validate(bundle)).body.valid).toBe(true);
    const asked = await send(bundle);
    expect(asked.status).toBe(200);
    expect(asked.body.text).toContain('What is the reason?');
    const sent = await send(bundle, 'because '.repeat(2_400));
    expect(sent.status).toBe(422);
    expect(sent.body.detail).toEqual([expect.objectContaining({ type: 'bundle_too_complex' })]);
    expect(sent.body.message).toMatch(/writing a message filling \{\{reason\}\}/);
  });
});
