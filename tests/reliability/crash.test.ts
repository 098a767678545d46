/**
 * Crash durability: the real service process (`server/main.ts`) receives a stream of sends, new
 * tasks and reruns from several clients, is killed with SIGKILL in the middle of it (twice), and
 * restarts on the same data. Everything acknowledged is there, exactly as the client received it;
 * nothing is half-written (each task's thread is the acknowledged sequence plus at most the one
 * message that was in flight, and no user message is stored without its reply); and the service
 * carries on appending where it left off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../server/store/sqlite-store';
import { startServiceProcess, type ServiceProcess } from '../../tools/lib/service-process';
import { getJson, postJson } from './wire';

const KEY = 'crash-key';
const STREAMS = 6;

interface Trace {
  interaction_id: string;
  input?: { message: string };
  response?: { message: string };
}
interface Sent {
  text: string;
  /** Set once acknowledged. */
  ack?: { id: string; reply: string; trace: Trace };
}

const dataDir = mkdtempSync(join(tmpdir(), 'threadline-crash-'));
/** Every task a client was told exists, with what it sent in order. */
const tasks = new Map<string, Sent[]>();
const branches: { taskId: string; id: string; trace: Trace; historyIds: string[] }[] = [];
let service: ServiceProcess | undefined;

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function createTask(url: string, agent: string): Promise<string> {
  const id = (
    await postJson<{ id: string }>(url, '/v1/messaging/tasks', KEY, { agent_id: agent, user_id: 'crash' })
  ).id;
  tasks.set(id, []);
  return id;
}

async function sendTo(url: string, taskId: string, text: string): Promise<void> {
  const sent: Sent = { text };
  tasks.get(taskId)!.push(sent);
  const reply = await postJson<{ id: string; text: string; trace_info: Trace }>(
    url,
    '/v1/messaging/messages?include_trace=true',
    KEY,
    { type: 'message', task_id: taskId, text },
  );
  sent.ack = { id: reply.id, reply: reply.text, trace: reply.trace_info };
}

/**
 * Streams sends (and task creations and reruns) from several clients until `killAfter`
 * acknowledgements, then SIGKILLs the service with requests still in flight.
 */
const unackedSends = () => [...tasks.values()].flat().filter((s) => !s.ack).length;

async function streamAndKill(proc: ServiceProcess, killAfter: number, phase: number): Promise<void> {
  const unackedBefore = unackedSends();
  let acks = 0;
  let killed: Promise<void> | undefined;
  const acked = () => {
    acks += 1;
    if (acks === killAfter) killed = proc.kill9();
  };
  const mine = [...tasks.keys()];
  const clients = Array.from({ length: STREAMS }, async (_, c) => {
    try {
      for (let m = 0; !killed; m += 1) {
        if (c === 0 && m % 3 === 0) {
          // A new task, then a first message in it.
          const id = await createTask(proc.url, m % 2 ? 'flight-changes' : 'card-disputes');
          acked();
          await sendTo(proc.url, id, `phase ${phase} new task ${m}: I want to dispute a charge`);
        } else if (c === 1 && m % 2 === 1 && (tasks.get(mine[1]!)?.filter((s) => s.ack).length ?? 0) >= 2) {
          // A rerun of an acknowledged interaction: the branch must hold the history before it.
          const origin = tasks.get(mine[1]!)!.filter((s) => s.ack);
          const target = origin[origin.length - 1]!.ack!.id;
          const result = await postJson<{
            regenerated_task_id: string;
            message: { id: string; trace_info: Trace };
          }>(proc.url, '/v1/messaging/messages/rerun?include_trace=true', KEY, {
            task_id: mine[1],
            interaction_id: target,
            text: `phase ${phase} rerun ${m}`,
          });
          branches.push({
            taskId: result.regenerated_task_id,
            id: result.message.id,
            trace: result.message.trace_info,
            historyIds: origin.slice(0, -1).map((s) => s.ack!.id),
          });
        } else {
          await sendTo(
            proc.url,
            mine[c]!,
            `phase ${phase} client ${c} message ${m}: a duplicate charge of $${m}`,
          );
        }
        acked();
      }
    } catch {
      // The service was killed under this request: it stays unacknowledged.
    }
  });
  await Promise.all(clients);
  await killed;
  expect(acks).toBeGreaterThanOrEqual(killAfter);
  // The kill really landed mid-stream: sends were in flight and never acknowledged.
  expect(unackedSends() - unackedBefore).toBeGreaterThan(0);
}

/**
 * What a restarted service must show for every task and branch a client was told about. Each task
 * has one sending client that waits for each ack, so its thread must be exactly the acknowledged
 * messages in order, plus at most the message in flight at each kill, whole or not at all (one in
 * flight at the first kill sits before the messages acknowledged after the restart).
 */
async function verify(url: string): Promise<number> {
  let checked = 0;
  for (const [taskId, sent] of tasks) {
    const stored = await getJson<Trace[]>(url, `/v1/messaging/tasks/${taskId}/trace-info`, KEY);
    const acked = sent.filter((s) => s.ack);
    const unackedTexts = new Set(sent.filter((s) => !s.ack).map((s) => s.text));
    const inFlight = (trace: Trace) => unackedTexts.has(trace.input?.message ?? '');
    const kept = stored.filter((trace) => !inFlight(trace));
    expect(kept).toEqual(acked.map((s) => s.ack!.trace));
    kept.forEach((trace, i) => expect(trace.response?.message).toBe(acked[i]!.ack!.reply));
    checked += acked.length;
    const extra = stored.filter(inFlight);
    expect(new Set(extra.map((trace) => trace.input?.message)).size).toBe(extra.length);
    for (const trace of extra) expect(trace.response?.message?.length).toBeGreaterThan(0);
  }
  // A branch's history is its origin's thread before the rerun turn: an in-flight message kept
  // there is in it too.
  const unacked = new Set(
    [...tasks.values()]
      .flat()
      .filter((s) => !s.ack)
      .map((s) => s.text),
  );
  for (const branch of branches) {
    const stored = await getJson<Trace[]>(url, `/v1/messaging/tasks/${branch.taskId}/trace-info`, KEY);
    expect(stored.filter((t) => !unacked.has(t.input?.message ?? '')).map((t) => t.interaction_id)).toEqual([
      ...branch.historyIds,
      branch.id,
    ]);
    expect(stored.at(-1)).toEqual(branch.trace);
  }
  return checked;
}

describe('kill -9 in the middle of a stream of sends', () => {
  it('loses nothing acknowledged and half-writes nothing, across two crashes', async () => {
    service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*` });
    for (let i = 0; i < STREAMS; i += 1)
      await createTask(service.url, i % 2 ? 'flight-changes' : 'card-disputes');
    await streamAndKill(service, 60, 1);

    service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*` });
    const afterFirst = await verify(service.url);
    expect(afterFirst).toBeGreaterThanOrEqual(40);
    await streamAndKill(service, 60, 2);

    service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*` });
    const afterSecond = await verify(service.url);
    expect(afterSecond).toBeGreaterThan(afterFirst);

    // The service carries on: a new send lands at the end of each task.
    for (const taskId of [...tasks.keys()].slice(0, 3)) {
      const before = await getJson<Trace[]>(service.url, `/v1/messaging/tasks/${taskId}/trace-info`, KEY);
      const reply = await postJson<{ id: string }>(service.url, '/v1/messaging/messages', KEY, {
        type: 'message',
        task_id: taskId,
        text: 'after the crashes',
      });
      const after = await getJson<Trace[]>(service.url, `/v1/messaging/tasks/${taskId}/trace-info`, KEY);
      expect(after.map((t) => t.interaction_id)).toEqual([...before.map((t) => t.interaction_id), reply.id]);
    }
    await service.stop();
    service = undefined;
    const turns = [...tasks.values()].flat();
    console.log(
      `[figure] crash: 2 kills mid-stream, ${tasks.size} tasks and ${branches.length} branches, ${turns.filter((t) => t.ack).length} acknowledged sends all found intact, ${turns.filter((t) => !t.ack).length} in flight at the kills`,
    );

    // Straight from the database: every stored turn has its user message, its reply and its trace.
    const store = new SqliteStore({ dataDir });
    try {
      for (const taskId of [...tasks.keys(), ...branches.map((b) => b.taskId)]) {
        expect(await store.getTask(taskId)).toBeDefined();
        for (const turn of await store.listTurns(taskId)) {
          expect(turn.userMessage.text.length).toBeGreaterThan(0);
          expect(turn.reply.text.length).toBeGreaterThan(0);
          expect(turn.trace.interaction_id).toBe(turn.interactionId);
        }
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
