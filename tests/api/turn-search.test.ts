/**
 * Searching every stored turn (`GET /reference/v1/turns`) and counting them (`/turns/facets`),
 * through real conversations with the example agents: filters alone and combined, paging newest
 * first while turns keep arriving, the keys' agents, readable refusals of malformed filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnFacets, TurnSearchPage } from '../../src/contract/api';
import { CARDS_ONLY, call, createTask, rerun, sendMessage, startService, type Service } from './helpers';

let service: Service;
let blockedTask: string;
let filedTask: string;
let flightTask: string;
let branch: string;

const search = (query: string, key?: string) =>
  call<TurnSearchPage>(service, 'GET', `/reference/v1/turns${query}`, key ? { key } : {});
const facets = (query: string, key?: string) =>
  call<TurnFacets>(service, 'GET', `/reference/v1/turns/facets${query}`, key ? { key } : {});
const found = async (query: string) => {
  const reply = await search(query);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.items.map((t) => `${t.task_id}#${t.turn}`);
};

beforeAll(async () => {
  service = await startService();
  blockedTask = (await createTask(service)).body.id;
  await sendMessage(
    service,
    blockedTask,
    'I want to dispute a charge of $120 at Coffee Corner from 10 days ago',
  );
  filedTask = (await createTask(service, { version_tag: 'v1' })).body.id;
  for (const text of [
    'I want to dispute a charge of $120 at Coffee Corner from 10 days ago',
    'It was a duplicate charge',
    'jane@example.com',
    'Yes, go ahead',
  ])
    await sendMessage(service, filedTask, text);
  const big = (await createTask(service)).body.id;
  await sendMessage(service, big, 'dispute a $620 charge from yesterday');
  flightTask = (await createTask(service, { agent_id: 'flight-changes' })).body.id;
  await sendMessage(service, flightTask, 'I need to change my flight');
  const first = (await call(service, 'GET', `/v1/messaging/tasks/${blockedTask}/trace-info`)).body[0];
  branch = (
    await rerun(service, {
      task_id: blockedTask,
      interaction_id: first.interaction_id,
      text: 'I want to dispute a charge of $120 at Coffee Corner from 5 days ago',
    })
  ).body.regenerated_task_id;
});
afterAll(() => service.dispose());

describe('GET /reference/v1/turns', () => {
  it('finds every turn where a rule blocked, with what decided it and where it is', async () => {
    const reply = await search('?rule=DISPUTE_WINDOW:blocked');
    expect(reply.status).toBe(200);
    expect(reply.body.items).toHaveLength(1);
    expect(reply.body.items[0]).toMatchObject({
      task_id: blockedTask,
      turn: 1,
      agent_id: 'card-disputes',
      decision: 'block_with_explanation',
      deciding_rule: 'DISPUTE_WINDOW',
      intent: 'dispute_charge',
      message: 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago',
    });
    expect(reply.body.next_cursor).toBeNull();
  });

  it('reads each filter, OR within a field and AND across fields', async () => {
    expect(await found('?tool=DISPUTE_CHARGE:invoked')).toEqual([`${filedTask}#4`]);
    expect(await found('?decision=request_confirmation')).toEqual([`${filedTask}#3`]);
    expect(await found('?agent=flight-changes')).toEqual([`${flightTask}#1`]);
    expect(await found('?param=transaction-amount>500')).toHaveLength(1);
    expect(await found('?param=transaction-amount>500&decision=proceed')).toEqual([]);
    expect(await found('?rule=VERIFIED_IDENTITY_ABOVE_500:blocked&rule=DISPUTE_WINDOW:blocked')).toHaveLength(
      2,
    );
    expect(await found('?rule=VERIFIED_IDENTITY_ABOVE_500:blocked,DISPUTE_WINDOW:blocked')).toHaveLength(2);
    // Words of the message or of the reply (replies offer and restate the reason).
    const duplicate = await found('?q=duplicate');
    expect(duplicate).toContain(`${filedTask}#2`);
    expect(await found('?q=duplicate&decision=proceed')).toEqual([`${filedTask}#4`]);
    expect(await found('?q=coffee&version=v1-30-day-window&intent=dispute_charge')).toEqual([
      `${filedTask}#1`,
    ]);
    // The branch's own turn is found under the branch; the inherited history is not repeated.
    expect(await found(`?task=${branch}`)).toEqual([`${branch}#1`]);
    expect(await found('?from=2999-01-01')).toEqual([]);
  });

  it('pages newest first with a cursor, stable while new turns arrive', async () => {
    const all = await found('?agent=card-disputes&limit=200');
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const reply: { body: TurnSearchPage } = await search(
        `?agent=card-disputes&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      paged.push(...reply.body.items.map((t) => `${t.task_id}#${t.turn}`));
      cursor = reply.body.next_cursor;
      // A turn arriving mid-way is newer than every page: it never shows up in a later page.
      await sendMessage(service, flightTask, 'ABC123');
    } while (cursor);
    expect(paged).toEqual(all);
    expect(new Set(paged).size).toBe(paged.length);
  });

  it('keeps a limited key to its agents, and refuses naming another', async () => {
    const reply = await search('', CARDS_ONLY);
    expect(reply.status).toBe(200);
    expect(reply.body.items.every((t) => t.agent_id === 'card-disputes')).toBe(true);
    const refused = await search('?agent=flight-changes', CARDS_ONLY);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('flight-changes');
    expect((await search('', 'not-a-key')).status).toBe(401);
  });

  it('answers malformed filters with a readable 422', async () => {
    for (const [query, words] of [
      ['?param=transaction-amount>lots', 'compares with a number'],
      ['?rule=:blocked', 'RULE_ID:result'],
      ['?tool=X:sometimes', 'TOOL:invoked'],
      ['?from=yesterday', 'not a date'],
      ['?limit=0', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?cursor=bm9wZQ', 'cursor'],
      [`?q=${'word '.repeat(40)}`, 'at most'],
    ] as const) {
      const reply = await search(query);
      expect(reply.status, query).toBe(422);
      expect(JSON.stringify(reply.body), query).toContain(words);
    }
  });
});

describe('GET /reference/v1/turns/facets', () => {
  it('says how often a rule blocks and since when, in one request', async () => {
    const reply = await facets('?rule=DISPUTE_WINDOW:blocked');
    expect(reply.status).toBe(200);
    expect(reply.body.total).toBe(1);
    expect(reply.body.decisions).toEqual([{ value: 'block_with_explanation', count: 1 }]);
    expect(reply.body.days).toHaveLength(1);
    expect(reply.body.days[0]!.count).toBe(1);
  });

  it('counts per decision, rule and result, tool and intent over the matching turns', async () => {
    const reply = await facets('?agent=card-disputes');
    expect(reply.status).toBe(200);
    const searched = await found('?agent=card-disputes&limit=200');
    expect(reply.body.total).toBe(searched.length);
    expect(reply.body.decisions.reduce((n, d) => n + d.count, 0)).toBe(searched.length);
    expect(reply.body.tools).toContainEqual(expect.objectContaining({ tool: 'DISPUTE_CHARGE', invoked: 1 }));
    expect(reply.body.rules).toContainEqual({ rule_id: 'DISPUTE_WINDOW', result: 'blocked', count: 1 });
    expect(reply.body.intents.map((i) => i.value)).toContain('dispute_charge');
    const limited = await facets('', CARDS_ONLY);
    expect(limited.body.total).toBe(searched.length);
  });
});
