import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARDS_ONLY,
  call,
  comparable,
  createTask,
  rerun,
  sendMessage,
  startService,
  type Service,
} from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

const TEXTS = [
  'I want to dispute a charge',
  'It was a duplicate charge of $42.50',
  'from 3 days ago',
  'jane.doe@example.com',
];

async function conversation(extra: Record<string, unknown> = {}) {
  const task = (await createTask(service, extra)).body;
  const replies = [];
  for (const text of TEXTS) replies.push((await sendMessage(service, task.id, text)).body);
  const traces = (await call(service, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`)).body;
  return { task, replies, traces };
}

describe('POST /v1/messaging/messages/rerun', () => {
  it('creates a branch: the history before the interaction, the replayed text, the new reply', async () => {
    const { task, replies, traces } = await conversation();
    const { status, body } = await rerun(service, {
      task_id: task.id,
      interaction_id: replies[2].id,
      text: 'from 2 days ago',
    });
    expect(status).toBe(200);
    expect(body.regenerated_task_id).toMatch(/\S/);
    expect(body.regenerated_task_id).not.toBe(task.id);
    expect(body.message.task_id).toBe(body.regenerated_task_id);
    expect(body.message.user_message.text).toBe('from 2 days ago');
    expect(body.message.trace_info.interaction_id).toBe(body.message.id);

    const branch = (await call(service, 'GET', `/v1/messaging/tasks/${body.regenerated_task_id}/trace-info`))
      .body;
    expect(branch).toHaveLength(3);
    expect(branch.slice(0, 2)).toEqual(traces.slice(0, 2));
    expect(branch[2]).toEqual(body.message.trace_info);
    expect(branch[2].input.message).toBe('from 2 days ago');
  });

  it('leaves the original task untouched', async () => {
    const { task, replies, traces } = await conversation();
    await rerun(service, {
      task_id: task.id,
      interaction_id: replies[1].id,
      text: 'It was an unauthorized charge',
    });
    const after = (await call(service, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`)).body;
    expect(after).toEqual(traces);
    const next = await sendMessage(service, task.id, 'thanks');
    expect(next.status).toBe(200);
  });

  it('replays the original text to an identical trace (ids and latency aside)', async () => {
    const { task, replies, traces } = await conversation();
    for (const [index, reply] of replies.entries()) {
      const { body } = await rerun(service, {
        task_id: task.id,
        interaction_id: reply.id,
        text: TEXTS[index],
      });
      expect(body.message.text).toBe(reply.text);
      expect(body.message.followup_suggestions).toEqual(reply.followup_suggestions);
      expect(comparable(body.message.trace_info)).toEqual(comparable(traces[index]));
    }
  });

  it("inherits the origin's clock, so relative dates resolve the same on the branch", async () => {
    const clock = { now: () => new Date('2025-02-10T09:00:00Z') };
    const later = { now: () => new Date('2025-06-30T18:00:00Z') };
    const early = await startService({ dependencies: { clock } });
    try {
      const task = (await createTask(early)).body;
      const first = (await sendMessage(early, task.id, 'I want to dispute a charge from yesterday')).body;
      await early.stop();
      const restarted = await startService({ dataDir: early.dataDir, dependencies: { clock: later } });
      try {
        const { body } = await rerun(restarted, {
          task_id: task.id,
          interaction_id: first.id,
          text: 'I want to dispute a charge from yesterday',
        });
        expect(comparable(body.message.trace_info)).toEqual(comparable(first.trace_info));
        expect(JSON.stringify(body.message.trace_info.entities)).toContain('2025-02-09');
      } finally {
        await restarted.dispose();
      }
    } finally {
      await early.dispose();
    }
  });

  it('can be rerun from a branch, giving a branch of the branch', async () => {
    const { task, replies } = await conversation();
    const first = (
      await rerun(service, {
        task_id: task.id,
        interaction_id: replies[3].id,
        text: 'call me on +1 555 010 0199',
      })
    ).body;
    const second = await rerun(service, {
      task_id: first.regenerated_task_id,
      interaction_id: replies[1].id,
      text: 'It was a duplicate charge of $10',
    });
    expect(second.status).toBe(200);
    const traces = (
      await call(service, 'GET', `/v1/messaging/tasks/${second.body.regenerated_task_id}/trace-info`)
    ).body;
    expect(traces.map((t: { interaction_id: string }) => t.interaction_id)).toEqual([
      replies[0].id,
      second.body.message.id,
    ]);
  });

  it('reads a branch of a branch of a branch: whole, by page across the forks, by interaction', async () => {
    const { task, replies, traces } = await conversation();
    const ids = (list: { interaction_id: string }[]) => list.map((t) => t.interaction_id);
    const tracesOf = async (taskId: string, query = '') =>
      (await call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info${query}`)).body;
    const rerunOf = async (taskId: string, interactionId: string, text: string) =>
      (await rerun(service, { task_id: taskId, interaction_id: interactionId, text })).body;

    const b1 = await rerunOf(task.id, replies[3].id, 'jane@example.com'); // r0 r1 r2 | x1
    const y1 = (await sendMessage(service, b1.regenerated_task_id, 'thanks')).body; // … x1 y1
    const b2 = await rerunOf(b1.regenerated_task_id, y1.id, 'thank you'); // r0 r1 r2 x1 | x2
    const first = await rerunOf(b2.regenerated_task_id, replies[0].id, TEXTS[0]!); // | x3
    const last = await rerunOf(b2.regenerated_task_id, b2.message.id, 'bye'); // r0 r1 r2 x1 | x4

    const lastTraces = await tracesOf(last.regenerated_task_id);
    expect(ids(lastTraces)).toEqual([...ids(traces.slice(0, 3)), b1.message.id, last.message.id]);
    expect(lastTraces.slice(0, 3)).toEqual(traces.slice(0, 3));
    expect(lastTraces[3]).toEqual(b1.message.trace_info);
    expect(ids(await tracesOf(first.regenerated_task_id))).toEqual([first.message.id]);
    expect(ids(await tracesOf(b1.regenerated_task_id))).toEqual([
      ...ids(traces.slice(0, 3)),
      b1.message.id,
      y1.id,
    ]);

    const page = await tracesOf(last.regenerated_task_id, '?page=2&size=2');
    expect(ids(page.items)).toEqual([replies[2].id, b1.message.id]);
    expect(page).toMatchObject({ total: 5, page: 2, size: 2, pages: 3 });

    const inherited = await call(
      service,
      'GET',
      `/v1/messaging/tasks/${last.regenerated_task_id}/interactions/${replies[1].id}/trace-info`,
    );
    expect(inherited.body).toEqual(traces[1]);
    expect(await tracesOf(last.regenerated_task_id, `?interaction_id=${b1.message.id}`)).toEqual([
      b1.message.trace_info,
    ]);
    // Not in this thread: the origin's regenerated turn, and the turns each rerun replaced.
    for (const missing of [replies[3].id, y1.id, b2.message.id]) {
      const answer = await call(
        service,
        'GET',
        `/v1/messaging/tasks/${last.regenerated_task_id}/interactions/${missing}/trace-info`,
      );
      expect(answer.status).toBe(404);
    }
    // The branch carries on from its own last turn.
    const next = await sendMessage(service, last.regenerated_task_id, 'one more thing');
    expect(next.status).toBe(200);
    expect(ids(await tracesOf(last.regenerated_task_id))).toHaveLength(6);
  });

  it('pins the rerun to a version and keeps that pin on the branch', async () => {
    const { task, replies } = await conversation();
    const { body } = await rerun(service, {
      task_id: task.id,
      interaction_id: replies[0].id,
      text: TEXTS[0],
      version_tag: 'v1',
    });
    expect(body.message.version_id).toBe('v1-30-day-window');
    const next = await sendMessage(service, body.regenerated_task_id, 'hello');
    expect(next.body.version_id).toBe('v1-30-day-window');
    const unknown = await rerun(service, {
      task_id: task.id,
      interaction_id: replies[0].id,
      text: 'x',
      version_id: 'v42',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toContain('v42');
  });

  it('runs a bundle for the rerun turn and records its hash; rejects an invalid one with issues', async () => {
    const { task, replies } = await conversation();
    const bundle = (await call(service, 'GET', '/reference/v1/agents/card-disputes/bundle?version=v1')).body
      .bundle;
    const ok = await rerun(service, {
      task_id: task.id,
      interaction_id: replies[0].id,
      text: TEXTS[0],
      agent_settings_bundle: bundle,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message.bundle_hash).toMatch(/^[0-9a-f]{16,}$/);
    const bad = await rerun(service, {
      task_id: task.id,
      interaction_id: replies[0].id,
      text: TEXTS[0],
      agent_settings_bundle: { agent_tools: 'not a list' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.issues.length).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown task or interaction, 403 for a foreign agent, 422 for a bad request', async () => {
    const { task, replies } = await conversation();
    const noTask = await rerun(service, { task_id: 'nope', interaction_id: replies[0].id, text: 'x' });
    expect(noTask.status).toBe(404);
    expect(noTask.body).toEqual({ error: 'Not Found', message: 'Task not found: nope' });
    const noInteraction = await rerun(service, { task_id: task.id, interaction_id: 'msg_nope', text: 'x' });
    expect(noInteraction.status).toBe(404);
    expect(noInteraction.body).toEqual({ error: 'Not Found', message: 'Interaction not found: msg_nope' });
    const userMessage = await rerun(service, {
      task_id: task.id,
      interaction_id: replies[0].user_message.id,
      text: 'x',
    });
    expect(userMessage.status).toBe(404);
    const flights = (await createTask(service, { agent_id: 'flight-changes' })).body;
    const flightReply = (await sendMessage(service, flights.id, 'hello')).body;
    const forbidden = await call(service, 'POST', '/v1/messaging/messages/rerun', {
      key: CARDS_ONLY,
      body: { task_id: flights.id, interaction_id: flightReply.id, text: 'x' },
    });
    expect(forbidden.status).toBe(403);
    const empty = await rerun(service, { task_id: task.id, interaction_id: replies[0].id, text: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body', 'text']);
    const wrongAgent = await rerun(service, {
      task_id: task.id,
      interaction_id: replies[0].id,
      text: 'x',
      agent_id: 'flight-changes',
    });
    expect(wrongAgent.status).toBe(422);
  });
});
