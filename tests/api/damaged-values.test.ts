/**
 * Every stored JSON value is checked when read: a damaged trace is an error item of its own in
 * every list (the good traces are served as they are, the answer stays valid JSON), a readable
 * error where it is asked for alone; a damaged state or task row is a readable error. Each one
 * found is logged and counted in /healthz. Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTask, runSql, sendMessage, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

async function threadOf(turns: number): Promise<{ taskId: string; ids: string[] }> {
  const taskId = (await createTask(service)).body.id as string;
  const ids: string[] = [];
  for (const text of ['I want to dispute a charge', 'TX-1042', 'it was a duplicate charge'].slice(0, turns))
    ids.push((await sendMessage(service, taskId, text)).body.id as string);
  return { taskId, ids };
}

const traces = (taskId: string, query = '') =>
  call(service, 'GET', `/v1/messaging/tasks/${taskId}/trace-info${query}`);

describe('damaged stored values', () => {
  it('a damaged trace is marked in every list, the others served; alone it is a readable error', async () => {
    const { taskId, ids } = await threadOf(3);
    // Cut the stored trace short, as a torn write or a bad copy would.
    await runSql(service, 'UPDATE turns SET trace = substr(trace, 1, 90) WHERE interaction_id = $1', [
      ids[1],
    ]);

    const list = await traces(taskId);
    expect(list.status).toBe(200);
    expect(typeof list.body).toBe('object'); // parsed: the answer is valid JSON
    expect(list.body.map((t: { interaction_id: string }) => t.interaction_id)).toEqual(ids);
    expect(list.body[0].decision).not.toBe('error');
    expect(list.body[1]).toMatchObject({
      interaction_id: ids[1],
      decision: 'error',
      damaged: true,
      error: expect.stringMatching(/stored trace of interaction .* is damaged/),
    });
    expect(list.body[2].damaged).toBeUndefined();

    const page = await traces(taskId, '?page=1&size=2');
    expect(page.status).toBe(200);
    expect(page.body.items[1]).toMatchObject({ interaction_id: ids[1], damaged: true });
    expect((await traces(taskId, `?interaction_id=${ids[1]}`)).body[0]).toMatchObject({ damaged: true });

    const alone = await call(
      service,
      'GET',
      `/v1/messaging/tasks/${taskId}/interactions/${ids[1]}/trace-info`,
    );
    expect(alone.status).toBe(500);
    expect(alone.body).toEqual({
      error: 'Internal Server Error',
      message: expect.stringMatching(/stored trace of interaction .* is damaged/),
    });

    const health = await call(service, 'GET', '/healthz', { key: null });
    expect(health.body.damaged_values.count).toBeGreaterThan(0);
    expect(health.body.damaged_values.last.what).toContain(ids[1]);
    expect(service.logs.some((l) => l.includes('"msg":"stored value damaged"') && l.includes(ids[1]!))).toBe(
      true,
    );
  });

  it('a damaged state: the next send is a readable error naming the task, other tasks carry on', async () => {
    const { taskId, ids } = await threadOf(1);
    await runSql(service, 'UPDATE turns SET state = \'{"values":\' WHERE interaction_id = $1', [ids[0]]);
    // SQLite also keeps the state after a thread's last turn with its task: what a send reads.
    if (service.storeKind === 'sqlite')
      await runSql(service, 'UPDATE tasks SET tip_state = \'{"values":\' WHERE id = $1', [taskId]);
    const sent = await sendMessage(service, taskId, 'TX-1042');
    expect(sent.status).toBe(500);
    expect(sent.body.message).toMatch(new RegExp(`stored state of task ${taskId} at turn 1 is damaged`));
    const other = await threadOf(1);
    expect((await sendMessage(service, other.taskId, 'TX-1042')).status).toBe(200);
  });

  it('a damaged task row: reading it is a readable error', async () => {
    const { taskId } = await threadOf(1);
    await runSql(service, "UPDATE tasks SET suggestions = '[\"oops' WHERE id = $1", [taskId]);
    const read = await call(service, 'GET', `/reference/v1/tasks/${taskId}`);
    expect(read.status).toBe(500);
    expect(read.body.message).toMatch(new RegExp(`stored suggestions of task ${taskId} is damaged`));
  });
});
