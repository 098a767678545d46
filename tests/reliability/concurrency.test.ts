/**
 * Many clients at once: some all sending to the same task, others each to their own task, with
 * reruns of the shared task in between. Every acknowledged message is kept exactly once, and a
 * task's thread order agrees with acknowledgement order: whenever a message was acknowledged
 * before another was sent, it comes first in the thread (the only order a client can observe).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startService, type Service } from '../api/helpers';
import { getJson, postJson } from './wire';

interface Trace {
  interaction_id: string;
  input?: { message: string };
}
interface Ack {
  taskId: string;
  text: string;
  id: string;
  trace: Trace;
  sentAt: number;
  ackedAt: number;
}

const SHARED_CLIENTS = 16;
const OWN_CLIENTS = 12;
const MESSAGES_EACH = 6;
const RERUNS = 6;

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

const newTask = async (agent = 'card-disputes') =>
  (
    await postJson<{ id: string }>(service.url, '/v1/messaging/tasks', ROOT, {
      agent_id: agent,
      user_id: 'load',
    })
  ).id;
const traces = (taskId: string) =>
  getJson<Trace[]>(service.url, `/v1/messaging/tasks/${taskId}/trace-info`, ROOT);

describe('concurrent clients', () => {
  it('keep every message, in acknowledgement order, on shared and separate tasks', async () => {
    const shared = await newTask();
    // Two turns before the storm, so reruns of the second have a history to copy.
    const seed1 = await postJson<{ id: string }>(service.url, '/v1/messaging/messages', ROOT, {
      type: 'message',
      task_id: shared,
      text: 'seed one: I want to dispute a charge',
    });
    await postJson(service.url, '/v1/messaging/messages', ROOT, {
      type: 'message',
      task_id: shared,
      text: 'seed two: it was a duplicate charge',
    });
    const seedTraces = await traces(shared);
    const own = await Promise.all(
      Array.from({ length: OWN_CLIENTS }, (_, i) => newTask(i % 2 ? 'flight-changes' : 'card-disputes')),
    );

    let clock = 0; // a logical clock: the order in which this process saw sends start and acks arrive
    const acks: Ack[] = [];
    const client = async (taskId: string, name: string) => {
      for (let m = 0; m < MESSAGES_EACH; m += 1) {
        const text = `${name} message ${m}: I want to dispute a charge of $${m + 1}0`;
        const sentAt = ++clock;
        const reply = await postJson<{ id: string; trace_info: Trace }>(
          service.url,
          '/v1/messaging/messages?include_trace=true',
          ROOT,
          { type: 'message', task_id: taskId, text },
        );
        acks.push({ taskId, text, id: reply.id, trace: reply.trace_info, sentAt, ackedAt: ++clock });
      }
    };
    const branches: { regenerated_task_id: string; message: { id: string } }[] = [];
    const reruns = async () => {
      for (let r = 0; r < RERUNS; r += 1) {
        branches.push(
          await postJson(service.url, '/v1/messaging/messages/rerun', ROOT, {
            task_id: shared,
            interaction_id: seedTraces[1]!.interaction_id,
            text: `rerun ${r}`,
          }),
        );
      }
    };
    await Promise.all([
      ...Array.from({ length: SHARED_CLIENTS }, (_, c) => client(shared, `shared-${c}`)),
      ...own.map((taskId, c) => client(taskId, `own-${c}`)),
      reruns(),
    ]);
    expect(acks).toHaveLength((SHARED_CLIENTS + OWN_CLIENTS) * MESSAGES_EACH);

    for (const taskId of [shared, ...own]) {
      const stored = await traces(taskId);
      const expected = acks.filter((a) => a.taskId === taskId);
      const thread = taskId === shared ? stored.slice(2) : stored;
      if (taskId === shared) expect(stored.slice(0, 2)).toEqual(seedTraces);

      // Exactly the acknowledged messages, each once, each with the trace its sender received.
      expect(thread.map((t) => t.interaction_id).sort()).toEqual(expected.map((a) => a.id).sort());
      const position = new Map(thread.map((t, i) => [t.interaction_id, i]));
      for (const ack of expected) {
        const trace = thread[position.get(ack.id)!]!;
        expect(trace).toEqual(ack.trace);
        expect(trace.input?.message).toBe(ack.text);
      }
      // Acknowledged before another was sent ⇒ earlier in the thread.
      const violations: string[] = [];
      for (const a of expected) {
        for (const b of expected) {
          if (a.ackedAt < b.sentAt && position.get(a.id)! > position.get(b.id)!)
            violations.push(`${a.text} after ${b.text}`);
        }
      }
      expect(violations.slice(0, 5)).toEqual([]);
    }

    // Reruns in the middle of the storm copied exactly the history before the rerun interaction.
    expect(new Set(branches.map((b) => b.regenerated_task_id)).size).toBe(RERUNS);
    for (const branch of branches) {
      const stored = await traces(branch.regenerated_task_id);
      expect(stored).toHaveLength(2);
      expect(stored[0]).toEqual(seedTraces[0]);
      expect(stored[0]!.interaction_id).toBe(seed1.id);
      expect(stored[1]!.interaction_id).toBe(branch.message.id);
    }
    console.log(
      `[figure] concurrency: ${SHARED_CLIENTS} clients on one task and ${OWN_CLIENTS} on their own, ${MESSAGES_EACH} messages each, ${RERUNS} reruns in between: ${acks.length} acknowledged, all kept in order`,
    );
  }, 120_000);
});
