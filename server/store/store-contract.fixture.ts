/**
 * What every `Store` implementation must do, as tests: each implementation's test file calls
 * `storeContract` inside its own `describe` with a function that opens an empty store.
 */
import { expect, it, describe } from 'vitest';
import type { Trace } from '../../src/contract/trace';
import { parseTurnQuery } from './turn-search';
import { term, termNumber } from './turn-terms';
import type { Store, StoredAgentVersion, TaskRecord, TurnRecord } from './store';

export function task(id: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    agentId: 'card-disputes',
    userId: 'u1',
    origin: 'web-widget',
    title: 'Card disputes',
    welcomeMessage: 'Hello',
    suggestions: ['Dispute a charge'],
    versionId: 'v2',
    versionTag: 'v2',
    clock: '2025-01-01T00:00:00.000Z',
    initialState: { step: 0 },
    branchOf: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function turn(taskId: string, n: number): TurnRecord {
  return {
    taskId,
    interactionId: `i${n}`,
    userMessage: { id: `u${n}`, text: `message ${n}`, createdAt: '2025-01-01T00:00:01.000Z' },
    reply: { text: `reply ${n}`, suggestions: [`s${n}`], createdAt: '2025-01-01T00:00:02.000Z' },
    trace: {
      interaction_id: `i${n}`,
      intent: 'x',
      entities: {},
      parameters_extracted: [],
      rules_evaluated: [],
      tools_considered: [],
      tools_invoked: [],
      decision: 'proceed',
    },
    state: { step: n },
    bundleHash: n % 2 ? null : `hash${n}`,
    versionId: 'v2',
  };
}

/** A turn with a real trace's shape: its rules, tools, values and texts are what the index reads. */
function tracedTurn(
  taskId: string,
  n: number,
  at: string,
  t: {
    text: string;
    reply?: string;
    decision: string;
    intent?: string;
    rules?: [string, string][];
    tools?: string[];
    invoked?: string[];
    values?: Record<string, unknown>;
  },
): TurnRecord {
  const base = turn(taskId, n);
  return {
    ...base,
    userMessage: { ...base.userMessage, text: t.text, createdAt: at },
    reply: { ...base.reply, text: t.reply ?? `reply ${n}`, createdAt: at },
    trace: {
      ...base.trace,
      intent: t.intent ?? 'dispute_charge',
      decision: t.decision,
      rules_evaluated: (t.rules ?? []).map(([rule_id, result]) => ({
        rule_id,
        rule_type: 'policy',
        predicate: `${rule_id} holds`,
        result,
        reason: `${rule_id} was ${result}`,
      })),
      tools_considered: t.tools ?? [],
      tools_invoked: (t.invoked ?? []).map((tool) => ({ tool, parameters: {}, result: 'success' })),
    },
    state: { values: t.values ?? {} },
  };
}

/** Every hit of a search given as query parameters, following the pages. */
async function searchAll(
  store: Store,
  params: Record<string, string[]>,
  allowed: string[] | null = null,
  pageSize = 2,
): Promise<string[]> {
  const query = parseTurnQuery(params);
  const out: string[] = [];
  let before: number | null = null;
  for (;;) {
    const { hits, next } = await store.searchTurns(query, allowed, before, pageSize);
    out.push(...hits.map((h) => `${h.taskId}/${h.interactionId}`));
    if (next === null) return out;
    before = next;
  }
}

export function storeContract(open: () => Promise<Store>): void {
  describe('the turn index', () => {
    async function indexed() {
      const store = await open();
      await store.createTask(task('t1'));
      await store.createTask(task('t2', { agentId: 'flight-changes', userId: 'u2' }));
      await store.appendTurn('t1', () =>
        tracedTurn('t1', 1, '2025-03-01T10:00:00.000Z', {
          text: 'I want to dispute a charge of $120 at Coffee Corner',
          reply: 'Disputes must be filed within 8 days.',
          decision: 'block_with_explanation',
          rules: [
            ['DISPUTE_WINDOW', 'blocked'],
            ['VERIFIED_IDENTITY_ABOVE_500', 'allowed'],
          ],
          tools: ['DISPUTE_CHARGE'],
          values: {
            'transaction-amount': 120,
            'transaction-date': '2025-02-19',
            'merchant-name': 'Coffee Corner',
          },
        }),
      );
      await store.appendTurn('t1', () =>
        tracedTurn('t1', 2, '2025-03-02T10:00:00.000Z', {
          text: 'dispute a $620 charge from yesterday',
          decision: 'block_with_explanation',
          rules: [
            ['DISPUTE_WINDOW', 'allowed'],
            ['VERIFIED_IDENTITY_ABOVE_500', 'blocked'],
          ],
          tools: ['DISPUTE_CHARGE'],
          values: { 'transaction-amount': 620, 'transaction-date': '2025-03-01' },
        }),
      );
      await store.appendTurn('t1', () =>
        tracedTurn('t1', 3, '2025-03-02T11:00:00.000Z', {
          text: 'Yes, go ahead',
          decision: 'proceed',
          intent: 'confirm',
          rules: [['DISPUTE_WINDOW', 'allowed']],
          tools: ['DISPUTE_CHARGE'],
          invoked: ['DISPUTE_CHARGE'],
          values: { 'transaction-amount': '75', 'transaction-date': '2025-03-01' },
        }),
      );
      await store.appendTurn('t2', () =>
        tracedTurn('t2', 1, '2025-03-03T09:00:00.000Z', {
          text: 'Change my flight ABC123 to next Friday',
          decision: 'request_confirmation',
          intent: 'change_flight',
          rules: [['CHANGE_FEE', 'requires_confirmation']],
          tools: ['CHANGE_FLIGHT'],
          values: { 'booking-reference': 'ABC123' },
        }),
      );
      return store;
    }

    it('finds turns by each filter, newest first, OR within a field and AND across fields', async () => {
      const store = await indexed();
      expect(await searchAll(store, {})).toEqual(['t2/i1', 't1/i3', 't1/i2', 't1/i1']);
      expect(await searchAll(store, { rule: ['DISPUTE_WINDOW:blocked'] })).toEqual(['t1/i1']);
      expect(await searchAll(store, { rule: ['DISPUTE_WINDOW'] })).toEqual(['t1/i3', 't1/i2', 't1/i1']);
      expect(
        await searchAll(store, { rule: ['DISPUTE_WINDOW:blocked,VERIFIED_IDENTITY_ABOVE_500:blocked'] }),
      ).toEqual(['t1/i2', 't1/i1']);
      expect(await searchAll(store, { tool: ['DISPUTE_CHARGE:invoked'] })).toEqual(['t1/i3']);
      expect(await searchAll(store, { tool: ['DISPUTE_CHARGE'] })).toEqual(['t1/i3', 't1/i2', 't1/i1']);
      expect(await searchAll(store, { decision: ['proceed', 'request_confirmation'] })).toEqual([
        't2/i1',
        't1/i3',
      ]);
      expect(await searchAll(store, { intent: ['confirm'] })).toEqual(['t1/i3']);
      expect(await searchAll(store, { agent: ['flight-changes'] })).toEqual(['t2/i1']);
      expect(await searchAll(store, { user: ['u2'] })).toEqual(['t2/i1']);
      expect(await searchAll(store, { param: ['transaction-amount>500'] })).toEqual(['t1/i2']);
      expect(await searchAll(store, { param: ['transaction-amount<100'] })).toEqual(['t1/i3']);
      expect(await searchAll(store, { param: ['transaction-date<2025-03-01'] })).toEqual(['t1/i1']);
      expect(await searchAll(store, { param: ['merchant-name=Coffee Corner'] })).toEqual(['t1/i1']);
      expect(await searchAll(store, { param: ['booking-reference'] })).toEqual(['t2/i1']);
      expect(await searchAll(store, { q: ['coffee'] })).toEqual(['t1/i1']);
      expect(await searchAll(store, { q: ['filed within'] })).toEqual(['t1/i1']);
      expect(await searchAll(store, { q: ['charge'] })).toEqual(['t1/i2', 't1/i1']);
      expect(await searchAll(store, { from: ['2025-03-02'], to: ['2025-03-02'] })).toEqual([
        't1/i3',
        't1/i2',
      ]);
      // AND across fields.
      expect(
        await searchAll(store, { rule: ['DISPUTE_WINDOW:allowed'], decision: ['block_with_explanation'] }),
      ).toEqual(['t1/i2']);
      expect(
        await searchAll(store, { tool: ['DISPUTE_CHARGE:invoked'], param: ['transaction-amount>500'] }),
      ).toEqual([]);
      // A key limited to some agents sees only their turns.
      expect(await searchAll(store, {}, ['flight-changes'])).toEqual(['t2/i1']);
      expect(await searchAll(store, {}, [])).toEqual([]);
    });

    it('matches whole words alike on every store: stop words as any other, no stemming, case and accents ignored', async () => {
      const store = await indexed();
      await store.appendTurn('t2', () =>
        tracedTurn('t2', 2, '2025-03-04T09:00:00.000Z', {
          text: 'Un CAFÉ à Zürich, the ﬁrst one',
          decision: 'proceed',
          rules: [],
          tools: [],
          values: {},
        }),
      );
      // "the", "of" and "a" are words like the others: only turns holding them are found.
      expect(await searchAll(store, { q: ['the charge'] })).toEqual([]);
      expect(await searchAll(store, { q: ['the'] })).toEqual(['t2/i2']);
      expect(await searchAll(store, { q: ['of'] })).toEqual(['t1/i1']);
      expect(await searchAll(store, { q: ['a charge'] })).toEqual(['t1/i2', 't1/i1']);
      // Whole words: "disputes" is in t1/i1's reply only, "dispute" in both messages.
      expect(await searchAll(store, { q: ['disputes'] })).toEqual(['t1/i1']);
      expect(await searchAll(store, { q: ['dispute'] })).toEqual(['t1/i2', 't1/i1']);
      // Case, accents and compatibility forms folded, in the text and in the query.
      expect(await searchAll(store, { q: ['cafe zurich'] })).toEqual(['t2/i2']);
      expect(await searchAll(store, { q: ['Café ZÜRICH first'] })).toEqual(['t2/i2']);
    });

    it('holds every `where` condition (bounds inclusive or not, a value, no value), and counts every match', async () => {
      const store = await indexed();
      const both = { where: ['transaction-amount>=75', 'transaction-amount<=120'] };
      expect(await searchAll(store, both)).toEqual(['t1/i3', 't1/i1']);
      expect(await searchAll(store, { where: ['transaction-amount>75', 'transaction-amount<120'] })).toEqual(
        [],
      );
      expect(await searchAll(store, { where: ['transaction-date>=2025-03-01'] })).toEqual(['t1/i3', 't1/i2']);
      expect(await searchAll(store, { where: ['transaction-amount<=120', '!merchant-name'] })).toEqual([
        't1/i3',
      ]);
      expect(await searchAll(store, { where: ['!transaction-amount'] })).toEqual(['t2/i1']);
      expect(
        await searchAll(store, { where: ['merchant-name=Coffee Corner', 'transaction-amount'] }),
      ).toEqual(['t1/i1']);
      const count = (values: Record<string, string[]>, allowed: readonly string[] | null = null) =>
        store.countMatchingTurns(parseTurnQuery(values), allowed);
      expect(await count(both)).toBe(2);
      expect(await count({ ...both, tool: ['DISPUTE_CHARGE'], from: ['2025-03-02'] })).toBe(1);
      expect(await count({ agent: ['card-disputes'], where: ['!transaction-amount'] })).toBe(0);
      expect(await count({})).toBe(4);
      expect(await count({}, ['flight-changes'])).toBe(1);
      expect(await count({ rule: ['DISPUTE_WINDOW'] }, [])).toBe(0);
    });

    it('indexes a branch’s own turns once, under the branch', async () => {
      const store = await indexed();
      await store.createBranch(
        task('b1', { branchOf: { taskId: 't1', interactionId: 'i2' } }),
        tracedTurn('b1', 9, '2025-03-04T00:00:00.000Z', {
          text: 'dispute a $60 charge from yesterday',
          decision: 'request_information',
          rules: [['DISPUTE_WINDOW', 'allowed']],
        }),
      );
      expect(await searchAll(store, { rule: ['DISPUTE_WINDOW:allowed'] })).toEqual([
        'b1/i9',
        't1/i3',
        't1/i2',
      ]);
      const [hit] = (await store.searchTurns(parseTurnQuery({ task: ['b1'] }), null, null, 10)).hits;
      expect(hit).toMatchObject({ taskId: 'b1', seq: 2, message: 'dispute a $60 charge from yesterday' });
    });

    it('never reads a text as a rule, a tool or a value, nor finds a term by words', async () => {
      const store = await indexed();
      // A message and a reply made of the very tokens (and numbers) the index writes for facts.
      const forged = [
        term('rule-result', 'DISPUTE_WINDOW', 'blocked'),
        term('tool-invoked', 'DISPUTE_CHARGE'),
        term('value', 'merchant-name', 'Coffee Corner'),
        term('decision', 'block_with_explanation'),
      ];
      await store.createTask(task('t9'));
      await store.appendTurn('t9', () =>
        tracedTurn('t9', 1, '2025-03-05T00:00:00.000Z', {
          text: forged.join(' '),
          reply: forged.map(termNumber).join(' '),
          decision: 'proceed',
        }),
      );
      expect(await searchAll(store, { rule: ['DISPUTE_WINDOW:blocked'] })).toEqual(['t1/i1']);
      expect(await searchAll(store, { tool: ['DISPUTE_CHARGE:invoked'] })).not.toContain('t9/i1');
      expect(await searchAll(store, { param: ['merchant-name=Coffee Corner'] })).not.toContain('t9/i1');
      expect(await searchAll(store, { decision: ['block_with_explanation'] })).not.toContain('t9/i1');
      // The tokens are found as the words of t9's texts only, never as t1's facts.
      expect(await searchAll(store, { q: [forged[0]!] })).toEqual(['t9/i1']);
    });

    it('counts the matching turns per decision, intent, rule and result, tool and day', async () => {
      const store = await indexed();
      const all = await store.turnFacets(parseTurnQuery({ agent: ['card-disputes'] }), null);
      expect(all.total).toBe(3);
      expect(all.decisions).toEqual([
        { value: 'block_with_explanation', count: 2 },
        { value: 'proceed', count: 1 },
      ]);
      expect(all.rules).toContainEqual({ rule_id: 'DISPUTE_WINDOW', result: 'allowed', count: 2 });
      expect(all.rules).toContainEqual({ rule_id: 'DISPUTE_WINDOW', result: 'blocked', count: 1 });
      expect(all.tools).toEqual([{ tool: 'DISPUTE_CHARGE', considered: 3, invoked: 1 }]);
      expect(all.days).toEqual([
        { day: '2025-03-01', count: 1 },
        { day: '2025-03-02', count: 2 },
      ]);
      const blocks = await store.turnFacets(parseTurnQuery({ rule: ['DISPUTE_WINDOW:blocked'] }), null);
      expect(blocks.total).toBe(1);
      expect(blocks.days).toEqual([{ day: '2025-03-01', count: 1 }]);
      expect((await store.turnFacets(parseTurnQuery({}), ['nobody'])).total).toBe(0);
    });
  });

  it('pages turns and traces and counts them', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3, 4, 5]) await store.appendTurn('t1', () => turn('t1', n));
    expect(await store.countTurns('t1')).toBe(5);
    const page = await store.listTurns('t1', { offset: 2, limit: 2 });
    expect(page.map((t) => t.interactionId)).toEqual(['i3', 'i4']);
    const traces = await store.listTraceJson('t1', { offset: 3, limit: 5 });
    expect(traces?.total).toBe(5);
    expect(traces?.traces.map((t) => (JSON.parse(t) as Trace).interaction_id)).toEqual(['i4', 'i5']);
    expect(await store.listTraceJson('nope', { offset: 0, limit: 5 })).toBeUndefined();
  });

  it('answers the initial state before any turn and undefined for an unknown task', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    expect(await store.latestState('t1')).toEqual({ step: 0 });
    expect(await store.latestState('nope')).toBeUndefined();
    expect(await store.getTurn('t1', 'i1')).toBeUndefined();
  });

  it('renames a task, and says when there is no such task', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    expect(await store.renameTask('t1', 'Coffee Corner dispute')).toBe(true);
    expect((await store.getTask('t1'))?.title).toBe('Coffee Corner dispute');
    expect(await store.renameTask('nope', 'x')).toBe(false);
  });

  it('appends on the tip the caller read, and on the real end when that tip is outdated', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    await store.appendTurn('t1', () => turn('t1', 1));
    const tip = (await store.threadTip('t1'))!;
    expect(tip).toEqual({ turns: 1, state: { step: 1 } });
    const seen: [unknown, number][] = [];
    await store.appendTurn(
      't1',
      (state, turns) => {
        seen.push([state, turns]);
        return turn('t1', 2);
      },
      tip,
    );
    // The same tip again: the thread has moved on to 2 turns since.
    await store.appendTurn(
      't1',
      (state, turns) => {
        seen.push([state, turns]);
        return turn('t1', 3);
      },
      tip,
    );
    expect(seen.at(-1)).toEqual([{ step: 2 }, 2]);
    expect(seen[0]).toEqual([{ step: 1 }, 1]);
    expect((await store.listTurns('t1')).map((t) => t.interactionId)).toEqual(['i1', 'i2', 'i3']);
  });

  it('creates a branch that inherits the history before its fork', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    for (const n of [1, 2, 3]) await store.appendTurn('t1', () => turn('t1', n));
    await store.createBranch(task('b1', { branchOf: { taskId: 't1', interactionId: 'i2' } }), turn('b1', 20));

    expect((await store.getTask('b1'))?.branchOf).toEqual({ taskId: 't1', interactionId: 'i2' });
    expect((await store.listTurns('b1')).map((t) => [t.taskId, t.interactionId])).toEqual([
      ['t1', 'i1'],
      ['b1', 'i20'],
    ]);
    expect(await store.countTurns('b1')).toBe(2);
    expect(await store.countTurns('t1')).toBe(3);
    await expect(
      store.createBranch(task('b2', { branchOf: { taskId: 't1', interactionId: 'nope' } }), turn('b2', 1)),
    ).rejects.toThrow(/nope/);
    expect(await store.getTask('b2')).toBeUndefined();
    await store.close();
  });

  describe('reads a branch of a branch of a branch through the chain', () => {
    // t1: i1..i6.  b1 = rerun of i4 on t1: i1 i2 i3 | j1 j2.
    // b2 = rerun of j2 on b1: i1 i2 i3 j1 | k1 k2.   b3 = rerun of k2 on b2: i1 i2 i3 j1 k1 | m1.
    // f1 = rerun of the first turn of b3: | n1.      l1 = rerun of the last turn of b3: i1 i2 i3 j1 k1 | p1.
    const ids = (turns: TurnRecord[]) => turns.map((t) => t.interactionId);
    const named = (taskId: string, interactionId: string, step: number): TurnRecord => ({
      ...turn(taskId, 0),
      interactionId,
      trace: { ...turn(taskId, 0).trace, interaction_id: interactionId },
      state: { step },
    });
    async function chain() {
      const store = await open();
      await store.createTask(task('t1'));
      for (const n of [1, 2, 3, 4, 5, 6]) await store.appendTurn('t1', () => turn('t1', n));
      const branch = async (id: string, from: string, at: string, own: [string, number][]) => {
        await store.createBranch(
          task(id, { branchOf: { taskId: from, interactionId: at } }),
          named(id, own[0]![0], own[0]![1]),
        );
        for (const [interactionId, step] of own.slice(1))
          await store.appendTurn(id, () => named(id, interactionId, step));
      };
      await branch('b1', 't1', 'i4', [
        ['j1', 41],
        ['j2', 42],
      ]);
      await branch('b2', 'b1', 'j2', [
        ['k1', 51],
        ['k2', 52],
      ]);
      await branch('b3', 'b2', 'k2', [['m1', 61]]);
      await branch('f1', 'b3', 'i1', [['n1', 71]]);
      await branch('l1', 'b3', 'm1', [['p1', 81]]);
      return store;
    }

    it('lists, counts and pages each thread, across the fork boundaries', async () => {
      const store = await chain();
      expect(ids(await store.listTurns('b1'))).toEqual(['i1', 'i2', 'i3', 'j1', 'j2']);
      expect(ids(await store.listTurns('b2'))).toEqual(['i1', 'i2', 'i3', 'j1', 'k1', 'k2']);
      expect(ids(await store.listTurns('b3'))).toEqual(['i1', 'i2', 'i3', 'j1', 'k1', 'm1']);
      expect(ids(await store.listTurns('f1'))).toEqual(['n1']);
      expect(ids(await store.listTurns('l1'))).toEqual(['i1', 'i2', 'i3', 'j1', 'k1', 'p1']);
      expect((await store.listTurns('b3')).map((t) => t.taskId)).toEqual([
        't1',
        't1',
        't1',
        'b1',
        'b2',
        'b3',
      ]);
      expect(await store.countTurns('b3')).toBe(6);
      expect(await store.countTurns('f1')).toBe(1);
      expect(ids(await store.listTurns('b3', { offset: 2, limit: 3 }))).toEqual(['i3', 'j1', 'k1']);
      expect(ids(await store.listTurns('b3', { offset: 4, limit: 50 }))).toEqual(['k1', 'm1']);
      const page = await store.listTraceJson('b3', { offset: 1, limit: 4 });
      expect(page?.total).toBe(6);
      expect(page?.traces.map((t) => (JSON.parse(t) as Trace).interaction_id)).toEqual([
        'i2',
        'i3',
        'j1',
        'k1',
      ]);
      // The origins are untouched, and their later turns do not reach their branches.
      expect(ids(await store.listTurns('t1'))).toEqual(['i1', 'i2', 'i3', 'i4', 'i5', 'i6']);
      await store.appendTurn('t1', () => turn('t1', 7));
      expect(await store.countTurns('b1')).toBe(5);
      expect(ids(await store.listTurns('b1', { offset: 3, limit: 10 }))).toEqual(['j1', 'j2']);
    });

    it('finds a turn and its trace by interaction id in inherited history, and only in the thread', async () => {
      const store = await chain();
      expect((await store.getTurn('b3', 'i2'))?.taskId).toBe('t1');
      expect((await store.getTurn('b3', 'j1'))?.state).toEqual({ step: 41 });
      const trace = await store.getTraceJson('b3', 'k1');
      expect(JSON.parse(trace!.traces!)).toMatchObject({ interaction_id: 'k1' });
      expect(trace?.agentId).toBe('card-disputes');
      // Turns of an ancestor after the fork, and the regenerated ones, are not in the thread.
      for (const missing of ['i4', 'i6', 'j2', 'k2', 'n1'])
        expect(await store.getTurn('b3', missing)).toBeUndefined();
      expect(await store.getTraceJson('b3', 'i5')).toEqual({ agentId: 'card-disputes', traces: null });
      expect(await store.getTraceJson('nope', 'i1')).toBeUndefined();
    });

    it('says where a turn is in a thread with inherited history, and what a page of turns ran with', async () => {
      const store = await chain();
      expect(await store.turnPosition('b3', 'i2')).toBe(1);
      expect(await store.turnPosition('b3', 'k1')).toBe(4);
      expect(await store.turnPosition('b3', 'i5')).toBeUndefined();
      expect(await store.turnPosition('nope', 'i1')).toBeUndefined();
      const page = await store.listTurnConfigs('b3', { offset: 2, limit: 3 });
      expect(page.map((t) => t.interactionId)).toEqual(['i3', 'j1', 'k1']);
      expect((await store.listTurnConfigs('b3')).map((t) => t.interactionId)).toEqual(
        ids(await store.listTurns('b3')),
      );
    });

    it('forks at the first and the last turn with the state before them', async () => {
      const store = await chain();
      expect(await store.forkPoint('b3', 'i1')).toEqual({ turnsBefore: 0, stateBefore: { step: 0 } });
      expect(await store.forkPoint('b3', 'm1')).toEqual({ turnsBefore: 5, stateBefore: { step: 51 } });
      expect(await store.forkPoint('b3', 'j1')).toEqual({ turnsBefore: 3, stateBefore: { step: 3 } });
      expect(await store.forkPoint('b3', 'i4')).toBeUndefined();
      expect(await store.latestState('b3')).toEqual({ step: 61 });
      expect(await store.latestState('l1')).toEqual({ step: 81 });
      expect(await store.latestState('f1')).toEqual({ step: 71 });
    });
  });

  it('appends each turn on the state the previous one left, and nothing when the turn fails', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    const seen: unknown[] = [];
    for (const n of [1, 2]) {
      const stored = await store.appendTurn('t1', (before) => {
        seen.push(before);
        return turn('other-task', n);
      });
      expect(stored.taskId).toBe('t1');
    }
    expect(seen).toEqual([{ step: 0 }, { step: 1 }]);
    await expect(
      store.appendTurn('t1', () => {
        throw new Error('engine failed');
      }),
    ).rejects.toThrow('engine failed');
    expect(await store.countTurns('t1')).toBe(2);
    await expect(store.appendTurn('nope', () => turn('nope', 1))).rejects.toThrow(/nope/);
  });

  it("tells where a thread ends (its length and last state), and gives appendTurn's callback the same length", async () => {
    const store = await open();
    await store.createTask(task('t1'));
    expect(await store.threadTip('t1')).toEqual({ turns: 0, state: { step: 0 } });
    expect(await store.threadTip('nope')).toBeUndefined();
    const lengths: number[] = [];
    for (const n of [1, 2])
      await store.appendTurn('t1', (_state, turnsBefore) => {
        lengths.push(turnsBefore);
        return turn('t1', n);
      });
    expect(lengths).toEqual([0, 1]);
    expect(await store.threadTip('t1')).toEqual({ turns: 2, state: { step: 2 } });
    // A branch's tip counts the turns it inherits.
    await store.createBranch(task('b1', { branchOf: { taskId: 't1', interactionId: 'i2' } }), turn('b1', 20));
    expect(await store.threadTip('b1')).toEqual({ turns: 2, state: { step: 20 } });
  });

  it('refuses an interaction id used twice in one task', async () => {
    const store = await open();
    await store.createTask(task('t1'));
    await store.appendTurn('t1', () => turn('t1', 1));
    await expect(store.appendTurn('t1', () => turn('t1', 1))).rejects.toThrow();
    expect(await store.countTurns('t1')).toBe(1);
  });
}

/** A published agent version for the agent tests below. */
function agentVersion(id: string, tag: string | null = id): StoredAgentVersion {
  return {
    id,
    tag,
    note: `note ${id}`,
    bundle: `{"general_settings":{"name":"${id}"}}`,
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

export function agentContract(open: () => Promise<Store>): void {
  const created = { id: 'hotel', createdAt: '2025-01-01T00:00:00.000Z' };
  const draft = { content: '{"draft":1}', updatedAt: '2025-01-01T00:00:00.000Z' };

  it('creates an agent once, with its first version active and its draft', async () => {
    const store = await open();
    const before = await store.agentsRevision();
    expect(await store.createAgent(created, agentVersion('v1'), draft)).toBe(true);
    expect(await store.createAgent(created, agentVersion('v1'), draft)).toBe(false);
    expect(await store.agentsRevision()).toBeGreaterThan(before);
    expect(await store.listStoredAgents()).toEqual([
      { id: 'hotel', activeVersion: 'v1', createdAt: created.createdAt, versions: [agentVersion('v1')] },
    ]);
    expect(await store.getAgentDraft('hotel')).toEqual(draft);
    expect(await store.getAgentDraft('nope')).toBeUndefined();
  });

  it('keeps versions in publishing order, refuses a taken id or tag, and activates only a known version', async () => {
    const store = await open();
    await store.createAgent(created, agentVersion('v1'), draft);
    expect(await store.addAgentVersion('hotel', agentVersion('v2'))).toBe('added');
    expect(await store.addAgentVersion('hotel', agentVersion('v3', 'v2'))).toBe('taken');
    expect(await store.addAgentVersion('hotel', { ...agentVersion('v2'), tag: 'other' })).toBe('taken');
    expect(await store.addAgentVersion('nope', agentVersion('v2'))).toBe('no-agent');
    expect(await store.setActiveAgentVersion('hotel', 'v2')).toBe(true);
    expect(await store.setActiveAgentVersion('hotel', 'v9')).toBe(false);
    const [agent] = await store.listStoredAgents();
    expect(agent?.activeVersion).toBe('v2');
    expect(agent?.versions).toEqual([agentVersion('v1'), agentVersion('v2')]);
  });

  it('replaces the draft without touching the published versions', async () => {
    const store = await open();
    await store.createAgent(created, agentVersion('v1'), draft);
    const next = { content: '{"draft":2}', updatedAt: '2025-01-02T00:00:00.000Z' };
    expect(await store.putAgentDraft('hotel', next)).toBe(true);
    expect(await store.putAgentDraft('nope', next)).toBe(false);
    expect(await store.getAgentDraft('hotel')).toEqual(next);
    expect((await store.listStoredAgents())[0]?.versions).toEqual([agentVersion('v1')]);
  });

  it('deletes an agent without threads, and refuses while a task uses it', async () => {
    const store = await open();
    await store.createAgent(created, agentVersion('v1'), draft);
    await store.createAgent({ ...created, id: 'spare' }, agentVersion('v1'), draft);
    await store.createTask(task('t1', { agentId: 'hotel' }));
    expect(await store.deleteAgent('hotel')).toBe('has-tasks');
    expect(await store.deleteAgent('spare')).toBe('deleted');
    expect(await store.deleteAgent('spare')).toBe('no-agent');
    expect((await store.listStoredAgents()).map((a) => a.id)).toEqual(['hotel']);
  });
}
