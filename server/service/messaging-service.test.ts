import { describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/contract';
import { SqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';
import { inlineWork } from '../work/engine-work';
import { MessagingService, nextBatchSize, TURN_ATTEMPTS } from './messaging-service';
import type { AgentRecord, MessagingDependencies } from './dependencies';
import { createKeyedSerializer } from './task-serializer';

/** An engine whose state counts turns, so a lost update shows as a repeated count. */
const countingEngine: Engine = {
  initialState: () => ({ turns: 0 }),
  welcome: () => ({ title: 'Counter', welcome_message: 'Hi', suggestions: [] }),
  runTurn: ({ state, text, interactionId }) => {
    const turns = (state.turns as number) + 1;
    return {
      reply: `turn ${turns}: ${text}`,
      suggestions: [],
      state: { turns },
      trace: {
        interaction_id: interactionId,
        intent: 'count',
        entities: { turns },
        input: { message: text },
        parameters_extracted: [],
        rules_evaluated: [],
        tools_considered: [],
        tools_invoked: [],
        decision: 'proceed',
      },
    };
  },
};

const agent: AgentRecord = {
  id: 'counter',
  name: 'Counter',
  description: '',
  active_version: 'v1',
  versions: [{ id: 'v1', tag: 'v1', description: '', bundle: {} }],
};

let nextId = 0;
const dependencies: MessagingDependencies = {
  engine: countingEngine,
  agents: {
    list: () => [agent],
    get: (id) => (id === agent.id ? agent : undefined),
    resolve: (a) => a.versions[0],
  },
  bundles: { validate: () => [], hash: () => 'h', jsonSchema: () => ({}) },
  clock: { now: () => new Date('2025-03-01T12:00:00Z') },
  newId: (kind) => `${kind}-${(nextId += 1)}`,
};
const key = { key: 'k', agents: '*' as const };

describe('MessagingService', () => {
  it('applies concurrent messages to one task one after another, each reading the previous state', async () => {
    const service = new MessagingService(
      new SqliteStore({ dataDir: ':memory:' }),
      dependencies,
      createKeyedSerializer(),
    );
    const task = await service.createTask(key, { agent_id: 'counter', user_id: 'u' });
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        service.sendMessage(key, { type: 'message', task_id: task.id, text: `m${i}` }, false),
      ),
    );
    const counts = replies.map((r) => Number(/^turn (\d+)/.exec(r.text)?.[1])).sort((a, b) => a - b);
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const traces = await service.listTraces(key, task.id, {});
    expect((traces as unknown as { entities: { turns: number } }[]).map((t) => t.entities.turns)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
  });

  it('answers stored trace JSON with the bytes JSON.stringify gives for the same list, page or trace', async () => {
    const service = new MessagingService(
      new SqliteStore({ dataDir: ':memory:' }),
      dependencies,
      createKeyedSerializer(),
    );
    const task = await service.createTask(key, { agent_id: 'counter', user_id: 'u' });
    expect(await service.listTracesJson(key, task.id, {})).toBe('[]');
    const sent = [];
    for (const text of ['a', 'b', 'c'])
      sent.push(await service.sendMessage(key, { type: 'message', task_id: task.id, text }, true));
    const traces = sent.map((m) => m.trace_info);
    expect(await service.listTracesJson(key, task.id, {})).toBe(JSON.stringify(traces));
    expect(await service.listTracesJson(key, task.id, { page: 2, size: 2 })).toBe(
      JSON.stringify({ items: traces.slice(2), total: 3, page: 2, size: 2, pages: 2 }),
    );
    expect(await service.listTracesJson(key, task.id, { interaction_id: sent[1]!.id })).toBe(
      JSON.stringify([traces[1]]),
    );
    expect(await service.listTracesJson(key, task.id, { interaction_id: sent[1]!.id, size: 5 })).toBe(
      JSON.stringify({ items: [traces[1]], total: 1, page: 1, size: 5, pages: 1 }),
    );
    expect(await service.getTraceJson(key, task.id, sent[0]!.id)).toBe(JSON.stringify(traces[0]));
  });

  it('starts a rerun branch from the state before the regenerated interaction', async () => {
    const service = new MessagingService(
      new SqliteStore({ dataDir: ':memory:' }),
      dependencies,
      createKeyedSerializer(),
    );
    const task = await service.createTask(key, { agent_id: 'counter', user_id: 'u' });
    const sent = [];
    for (const text of ['a', 'b', 'c'])
      sent.push(await service.sendMessage(key, { type: 'message', task_id: task.id, text }, false));
    const branch = await service.rerun(
      key,
      { task_id: task.id, interaction_id: sent[1]!.id, text: 'B' },
      false,
    );
    expect(branch.message.text).toBe('turn 2: B');
  });

  it('computes a turn again from the new state when another instance added a turn meanwhile, and at last while the store holds the thread', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    // Another instance: the same store, a serializer of its own.
    const other = new MessagingService(store, dependencies, createKeyedSerializer());
    let interruptions = 0;
    let computed = 0;
    let taskId = '';
    const work = inlineWork(countingEngine, () => []);
    const service = new MessagingService(
      store,
      {
        ...dependencies,
        work: {
          ...work,
          turn: async (input, owner, share) => {
            computed += 1;
            if (interruptions > 0) {
              interruptions -= 1;
              await other.sendMessage(key, { type: 'message', task_id: taskId, text: 'other' }, false);
            }
            return work.turn(input, owner, share);
          },
        },
      },
      createKeyedSerializer(),
    );
    taskId = (await service.createTask(key, { agent_id: 'counter', user_id: 'u' })).id;

    interruptions = 1;
    const answer = await service.sendMessage(key, { type: 'message', task_id: taskId, text: 'mine' }, false);
    expect(answer.text).toBe('turn 2: mine');
    expect(computed).toBe(2);
    const texts = (await store.listTurns(taskId)).map((t) => t.reply.text);
    expect(texts).toEqual(['turn 1: other', 'turn 2: mine']);

    // Outdated more times than it is computed outside the store's hold: then computed inside it.
    interruptions = TURN_ATTEMPTS + 1;
    computed = 0;
    const late = await service.sendMessage(key, { type: 'message', task_id: taskId, text: 'late' }, false);
    expect(computed).toBe(TURN_ATTEMPTS + 2);
    expect((await store.listTurns(taskId)).map((t) => t.reply.text)).toEqual([
      'turn 1: other',
      'turn 2: mine',
      'turn 3: other',
      'turn 4: other',
      'turn 5: other',
      'turn 6: other',
      'turn 7: late',
    ]);
    expect(late.text).toBe('turn 7: late');
  });

  it('answers a long trace list in pieces, reading each batch only when the previous piece was taken', async () => {
    const sqlite = new SqliteStore({ dataDir: ':memory:' });
    let tracesRead = 0;
    const store: Store = Object.assign(Object.create(sqlite) as Store, {
      listTraceJson: async (...args: Parameters<Store['listTraceJson']>) => {
        const page = await sqlite.listTraceJson(...args);
        tracesRead += page?.traces.length ?? 0;
        return page;
      },
    });
    const service = new MessagingService(store, dependencies, createKeyedSerializer());
    const task = await service.createTask(key, { agent_id: 'counter', user_id: 'u' });
    const text = 'x'.repeat(4000);
    for (let i = 0; i < 300; i += 1)
      await service.sendMessage(key, { type: 'message', task_id: task.id, text: `${i}${text}` }, false);
    const expected = JSON.parse(await service.listTracesJson(key, task.id, { page: 1, size: 300 })) as {
      items: unknown[];
    };
    tracesRead = 0;

    const pieces = (await service.traceList(key, task.id, {}))[Symbol.asyncIterator]();
    const first = await pieces.next();
    expect(tracesRead).toBeLessThanOrEqual(64);
    const all = [first.value as string];
    for (;;) {
      // Each next piece lets the event loop run first.
      let loopRan = false;
      setImmediate(() => (loopRan = true));
      const next = await pieces.next();
      if (next.done) break;
      expect(loopRan).toBe(true);
      all.push(next.value);
    }
    expect(all.length).toBeGreaterThan(10);
    for (const piece of all.slice(1)) expect(piece.length).toBeLessThan(2 * 64 * 1024);
    expect(all.join('')).toBe(JSON.stringify(expected.items));
    expect(tracesRead).toBe(300);
  });

  it('sizes batches towards 64 KB, one trace at least, at most 1,000, never past the end', () => {
    expect(nextBatchSize(64, 64 * 1024, 10_000)).toBe(64);
    expect(nextBatchSize(64, 64 * 4096, 10_000)).toBe(16);
    expect(nextBatchSize(10, 10 * 1024 * 1024, 10_000)).toBe(1);
    expect(nextBatchSize(64, 64 * 10, 10_000)).toBe(1000);
    expect(nextBatchSize(64, 64 * 1024, 5)).toBe(5);
  });
});
