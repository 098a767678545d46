/**
 * The thread list (`GET /reference/v1/tasks`): every task the key may see, latest activity first,
 * with what the list shows of each; filtered by agent and title; paged with a cursor while tasks
 * keep getting turns; refusals of malformed parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskListPage } from '../../src/contract/api';
import { CARDS_ONLY, call, createTask, rerun, sendMessage, startService, type Service } from './helpers';

let service: Service;

const list = (query = '', key?: string) =>
  call<TaskListPage>(service, 'GET', `/reference/v1/tasks${query}`, key ? { key } : {});
const listed = async (query = '', key?: string) => {
  const reply = await list(query, key);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.items.map((t) => t.task_id);
};
const newTask = async (body: Record<string, unknown> = {}) =>
  (await createTask(service, body)).body.id as string;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.dispose());

describe('GET /reference/v1/tasks', () => {
  it('lists tasks by latest activity: a task that gets a turn moves to the top', async () => {
    const a = await newTask();
    const b = await newTask();
    const c = await newTask();
    expect(await listed('?limit=3')).toEqual([c, b, a]);
    await sendMessage(service, a, 'hello');
    expect(await listed('?limit=3')).toEqual([a, c, b]);
  });

  it('says of each task its agent, title, length, last activity and, for a branch, its origin', async () => {
    const task = await newTask({ user_id: 'lister' });
    const first = await sendMessage(service, task, 'I want to dispute a charge of $120 from 10 days ago');
    await sendMessage(service, task, 'It was a duplicate charge');
    const branch = (
      await rerun(service, {
        task_id: task,
        interaction_id: first.body.id,
        text: 'dispute $80 from 3 days ago',
      })
    ).body.regenerated_task_id as string;
    const [top, next] = (await list('?limit=2')).body.items;
    expect(top).toMatchObject({
      task_id: branch,
      agent_id: 'card-disputes',
      user_id: 'lister',
      turn_count: 1,
      parent: { task_id: task, interaction_id: first.body.id },
    });
    expect(next).toMatchObject({ task_id: task, turn_count: 2, parent: null, version_tag: 'v2' });
    expect(next!.title).toMatch(/\S/);
    expect(Date.parse(next!.last_activity_at)).toBeGreaterThanOrEqual(Date.parse(next!.created_at));
    await sendMessage(service, branch, 'thanks');
    expect((await list('?limit=1')).body.items[0]).toMatchObject({ task_id: branch, turn_count: 2 });
  });

  it('filters by agent and by words of the title', async () => {
    const flight = await newTask({ agent_id: 'flight-changes' });
    const cards = await newTask();
    await call(service, 'PUT', `/reference/v1/tasks/${cards}/title`, {
      body: { title: 'Refund 100% of the FEE' },
    });
    const flights = await listed('?agent=flight-changes');
    expect(flights).toContain(flight);
    expect(flights).not.toContain(cards);
    expect(await listed('?agent=flight-changes,card-disputes&limit=2')).toEqual([cards, flight]);
    expect(await listed('?q=100%25 of the fee')).toEqual([cards]);
    expect(await listed('?q=1_0')).toEqual([]);
  });

  it('shows a key only the tasks of its agents, and refuses to list another agent', async () => {
    const flight = await newTask({ agent_id: 'flight-changes' });
    const cards = await newTask();
    const seen = await listed('?limit=500', CARDS_ONLY);
    expect(seen).toContain(cards);
    expect(seen).not.toContain(flight);
    const refused = await list('?agent=flight-changes', CARDS_ONLY);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: expect.stringContaining('flight-changes') });
  });

  it('pages without repeating or skipping a task while others get turns and new tasks arrive', async () => {
    const quiet: string[] = [];
    for (let i = 0; i < 12; i += 1) quiet.push(await newTask({ agent_id: 'shop-returns' }));
    const busy = [await newTask({ agent_id: 'shop-returns' }), await newTask({ agent_id: 'shop-returns' })];
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const reply: { status: number; body: TaskListPage } = await list(
        `?agent=shop-returns&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(reply.status).toBe(200);
      seen.push(...reply.body.items.map((t) => t.task_id));
      cursor = reply.body.next_cursor;
      // Between pages: the busy tasks get turns, and a new task arrives.
      await Promise.all([
        ...busy.map((t) => sendMessage(service, t, `message ${pages}`)),
        newTask({ agent_id: 'shop-returns' }),
      ]);
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((t) => quiet.includes(t))).toEqual([...quiet].reverse());
    // Read again after their next turns, the busy tasks come first.
    for (const t of busy) await sendMessage(service, t, 'again');
    expect(await listed('?agent=shop-returns&limit=2')).toEqual([...busy].reverse());
  });

  it('answers 422 for a bad limit, a cursor it did not give, an unknown parameter or a repeated q', async () => {
    for (const query of [
      '?limit=0',
      '?limit=501',
      '?limit=ten',
      '?cursor=bm9wZQ',
      '?sort=title',
      '?q=a&q=b',
    ]) {
      const reply = await list(query);
      expect({ query, status: reply.status }).toEqual({ query, status: 422 });
      expect(JSON.stringify(reply.body)).toMatch(/limit|cursor|sort|q/);
    }
  });

  it('answers 401 without a key', async () => {
    expect((await call(service, 'GET', '/reference/v1/tasks', { key: null })).status).toBe(401);
  });
});
