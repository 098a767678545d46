import { describe, expect, it } from 'vitest';
import { readTrace } from '../../contract/trace';
import {
  fetchedFacets,
  fetchedTurnOf,
  matchesFetched,
  newestFirst,
  readFetchedQuery,
  type FetchedTurnSource,
} from './fetched-search';

const source = (
  over: Omit<Partial<FetchedTurnSource>, 'trace'> & { trace?: unknown },
): FetchedTurnSource => ({
  taskId: 'task_1',
  agentId: 'card-disputes',
  userId: 'u1',
  turn: 1,
  interactionId: 'msg_1',
  message: 'I want to dispute a charge of $300 at Coffee Corner',
  reply: 'Disputes must be filed within 8 days.',
  decision: '',
  createdAt: '2026-03-02T10:00:00.000Z',
  versionId: 'v2',
  bundleHash: null,
  ...over,
  trace: readTrace(
    over.trace ?? {
      interaction_id: 'msg_1',
      intent: 'dispute_charge',
      decision: 'block_with_explanation',
      entities: { 'transaction-amount': 300, 'transaction.date': '2026-02-20' },
      parameters_extracted: [],
      rules_evaluated: [
        { rule_id: 'ASK_REASON', rule_type: 'x', predicate: 'p', result: 'allowed', reason: '' },
        { rule_id: 'DISPUTE_WINDOW', rule_type: 'x', predicate: 'p', result: 'blocked', reason: '' },
      ],
      tools_considered: ['DISPUTE_CHARGE'],
      tools_invoked: [],
    },
  ),
});

const blocked = fetchedTurnOf(source({}));
const proceeded = fetchedTurnOf(
  source({
    taskId: 'task_2',
    interactionId: 'msg_9',
    message: 'Yes go ahead',
    createdAt: '2026-03-03T10:00:00.000Z',
    trace: {
      interaction_id: 'msg_9',
      intent: 'confirm',
      decision: 'proceed',
      entities: { 'transaction-amount': '120' },
      rules_evaluated: [{ rule_id: 'DISPUTE_WINDOW', result: 'allowed' }],
      tools_considered: ['DISPUTE_CHARGE'],
      tools_invoked: [{ tool: 'DISPUTE_CHARGE', parameters: {}, result: 'success' }],
    },
  }),
);
const find = (q: string) => [blocked, proceeded].filter((t) => matchesFetched(readFetchedQuery(q), t));

describe('searching the turns this browser fetched, with the service’s filters', () => {
  it('makes a result of a turn, naming the rule that decided it', () => {
    expect(blocked.hit).toMatchObject({
      task_id: 'task_1',
      decision: 'block_with_explanation',
      deciding_rule: 'DISPUTE_WINDOW',
      intent: 'dispute_charge',
    });
  });

  it('matches rules with or without a result, tools considered or invoked, decisions', () => {
    expect(find('rule=DISPUTE_WINDOW:blocked')).toEqual([blocked]);
    expect(find('rule=DISPUTE_WINDOW')).toEqual([blocked, proceeded]);
    expect(find('tool=DISPUTE_CHARGE:invoked')).toEqual([proceeded]);
    expect(find('tool=DISPUTE_CHARGE')).toHaveLength(2);
    expect(find('decision=proceed,nothing')).toEqual([proceeded]);
  });

  it('is OR within a field and AND across fields', () => {
    expect(find('rule=DISPUTE_WINDOW:blocked&rule=DISPUTE_WINDOW:allowed')).toHaveLength(2);
    expect(find('rule=DISPUTE_WINDOW:blocked&decision=proceed')).toEqual([]);
    expect(find('agent=card-disputes&intent=confirm')).toEqual([proceeded]);
  });

  it('compares values as numbers and dates, and finds words', () => {
    expect(find('param=transaction-amount>200')).toEqual([blocked]);
    expect(find('param=transaction-amount<200')).toEqual([proceeded]);
    expect(find('param=transaction-amount=120')).toEqual([proceeded]);
    expect(find('param=transaction.date>2026-02-01')).toEqual([blocked]);
    expect(find('param=transaction.date')).toEqual([blocked]);
    // Every `where` condition must hold; bounds inclusive or not; `!code` for no value.
    expect(find('where=transaction-amount>=120&where=transaction-amount<=300')).toEqual([blocked, proceeded]);
    expect(find('where=transaction-amount>120&where=transaction-amount<300')).toEqual([]);
    expect(find('where=transaction-amount<=120&where=!transaction.date')).toEqual([proceeded]);
    expect(find('where=transaction.date<=2026-02-20&where=transaction-amount')).toEqual([blocked]);
    expect(find('q=coffee%20CORNER')).toEqual([blocked]);
    expect(find('q=coffee%20tea')).toEqual([]);
    expect(find('from=2026-03-03')).toEqual([proceeded]);
    expect(find('to=2026-03-02')).toEqual([blocked]);
  });

  it('says what it cannot read, as the service does', () => {
    expect(() => readFetchedQuery('param=amount>lots')).toThrow(/compares with a number/);
    expect(() => readFetchedQuery('rule=:blocked')).toThrow(/RULE_ID or RULE_ID:result/);
    expect(() => readFetchedQuery('tool=A:maybe')).toThrow(/TOOL or TOOL:invoked/);
    expect(() => readFetchedQuery('from=yesterday')).toThrow(/not a date/);
  });

  it('counts as the service does, newest first', () => {
    const facets = fetchedFacets([blocked, proceeded].sort(newestFirst));
    expect(facets).toMatchObject({ total: 2, complete: true, since: '2026-03-02T10:00:00.000Z' });
    expect(facets.rules).toEqual([
      { rule_id: 'ASK_REASON', result: 'allowed', count: 1 },
      { rule_id: 'DISPUTE_WINDOW', result: 'allowed', count: 1 },
      { rule_id: 'DISPUTE_WINDOW', result: 'blocked', count: 1 },
    ]);
    expect(facets.tools).toEqual([{ tool: 'DISPUTE_CHARGE', considered: 2, invoked: 1 }]);
    expect(facets.days).toEqual([
      { day: '2026-03-02', count: 1 },
      { day: '2026-03-03', count: 1 },
    ]);
    expect([blocked, proceeded].sort(newestFirst)[0]).toBe(proceeded);
  });

  it('a search naming a field like a prototype member is read as an unknown field, never a crash', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(readFetchedQuery(`${name}=x&${name}=y&decision=proceed`).decisions).toEqual(['proceed']);
  });
});
