/**
 * A generated store of turns for the benchmarks of the turn index (`turn-search.ts`,
 * `analysis-recorded.ts`): the example agents' demo conversations run through the engine once,
 * repeated with other amounts, dates and times spread over the year 2025, in tasks of ten turns
 * over three agents, written in bulk with the store's own row format and index code. A SQLite
 * store may be kept in a folder (`--keep DIR`) and measured again by any of them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { converse, exampleBundle } from '../../server/agents/converse';
import { taskToRow, turnToRow, TASK_COLUMNS, TURN_COLUMNS } from '../../server/store/rows';
import { SqliteStore } from '../../server/store/sqlite-store';
import { SqliteTurnIndex } from '../../server/store/sqlite-turn-index';
import type { Store, TaskRecord, TurnRecord } from '../../server/store/store';
import { term } from '../../server/store/turn-terms';
import { turnIndexEntry } from '../../engine/turn-index-entry';

const TURNS_PER_TASK = 10;
const CLOCK = '2025-03-15T12:00:00Z';

/** The demo conversations, one list of messages each, with their agent and version. */
const CONVERSATIONS: { agent: string; tag?: string; says: string[] }[] = [
  {
    agent: 'card-disputes',
    says: [
      'I want to dispute a charge of $120 at Coffee Corner from 10 days ago',
      'show me my recent transactions',
    ],
  },
  {
    agent: 'card-disputes',
    tag: 'v1',
    says: [
      'I want to dispute a charge of $120 at Coffee Corner from 10 days ago',
      'It was a duplicate charge',
      'jane@example.com',
      'Yes, go ahead',
    ],
  },
  {
    agent: 'card-disputes',
    says: ['dispute a $620 charge from yesterday', 'dispute an unauthorized $45 charge from 2 days ago'],
  },
  { agent: 'flight-changes', says: ['I need to change my flight', 'ABC123', 'next Friday', 'yes'] },
  { agent: 'shop-returns', says: ['I want to return an item', 'order 1001', 'it arrived damaged'] },
];

export interface Sample {
  agent: string;
  text: string;
  out: ReturnType<ReturnType<typeof converse>['say']>;
}

/** Each demo conversation's turns, run once through the engine. */
export function samples(): Sample[][] {
  return CONVERSATIONS.map((c) => {
    const talk = converse(exampleBundle(c.agent, c.tag ? { version_tag: c.tag } : {}), CLOCK);
    return c.says.map((text) => ({ agent: c.agent, text, out: talk.say(text) }));
  });
}

/** Turn `i` of a store of `total` turns: a sample with its amount and time varied. */
export function turnOf(sample: Sample, i: number, taskId: string, total: number): TurnRecord {
  const at = new Date(
    Date.parse('2025-01-01T00:00:00Z') + Math.floor((i / total) * 365 * 86_400_000),
  ).toISOString();
  const amount = 5 + ((i * 7919) % 1000);
  const values = { ...((sample.out.state.values as Record<string, unknown> | undefined) ?? {}) };
  if ('transaction-amount' in values) values['transaction-amount'] = amount;
  const trace = structuredClone(sample.out.trace);
  trace.interaction_id = `msg-${i}`;
  if ('transaction.transaction-amount' in trace.entities)
    trace.entities['transaction.transaction-amount'] = amount;
  return {
    taskId,
    interactionId: `msg-${i}`,
    userMessage: { id: `user-${i}`, text: sample.text, createdAt: at },
    reply: { text: sample.out.reply, suggestions: sample.out.suggestions, createdAt: at },
    trace,
    state: { ...sample.out.state, values },
    bundleHash: null,
    versionId: 'v2',
  };
}

/** `@column` placeholders of a column list. */
export const named = (columns: string) =>
  columns
    .split(', ')
    .map((c) => `@${c}`)
    .join(', ');

/** Writes the turns straight into the SQLite file, with the index entries the store would write. */
export function fillSqlite(file: string, all: Sample[][], total: number): number {
  const started = performance.now();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const insertTask = db.prepare(`INSERT INTO tasks (${TASK_COLUMNS}) VALUES (${named(TASK_COLUMNS)})`);
  const insertTurn = db.prepare(`INSERT INTO turns (${TURN_COLUMNS}) VALUES (${named(TURN_COLUMNS)})`);
  const index = new SqliteTurnIndex(db);
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      const { task, sample, seq } = taskOf(all, i, total);
      if (seq === 1) insertTask.run(taskToRow(task));
      const turn = turnOf(sample, i, task.id, total);
      insertTurn.run(turnToRow(turn, seq));
      index.add(turnIndexEntry(task, turn, seq, term));
    }
    index.catchUp(); // the entries into the index, as the writer does between sends
  });
  for (let i = 0; i < total; i += 10_000) batch(i, Math.min(total, i + 10_000));
  db.close();
  return performance.now() - started;
}

/** The task of turn `i`: a task every ten turns, each a demo conversation repeated. */
export function taskOf(
  all: Sample[][],
  i: number,
  total: number,
): { task: TaskRecord; sample: Sample; seq: number } {
  const first = i - (i % TURNS_PER_TASK);
  const conversation = all[(first / TURNS_PER_TASK) % all.length]!;
  const sample = conversation[(i % TURNS_PER_TASK) % conversation.length]!;
  const task: TaskRecord = {
    id: `task-${first}`,
    agentId: sample.agent,
    userId: `user-${first % 97}`,
    origin: 'web-widget',
    title: 'bench',
    welcomeMessage: null,
    suggestions: [],
    versionId: 'v2',
    versionTag: 'v2',
    clock: CLOCK,
    initialState: {},
    branchOf: null,
    createdAt: timeOf(first, total),
  };
  return { task, sample, seq: (i % TURNS_PER_TASK) + 1 };
}

const timeOf = (i: number, total: number) =>
  new Date(Date.parse('2025-01-01T00:00:00Z') + Math.floor((i / total) * 365 * 86_400_000)).toISOString();

/**
 * A SQLite store of `total` generated turns: in `keep` when given (filled there once and left, so
 * that a second run measures the same store; a store kept by either benchmark serves both), else
 * in a temporary folder removed by `done`.
 */
export async function sqliteStoreOf(
  all: Sample[][],
  total: number,
  keep: string | undefined,
): Promise<{ store: Store; fillMs: number; file: string; done: () => Promise<void> }> {
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'threadline-search-bench-'));
  const filled = keep !== undefined && existsSync(join(dir, 'filled'));
  let fillMs: number;
  if (!filled) {
    mkdirSync(dir, { recursive: true });
    await new SqliteStore({ dataDir: dir }).close(); // the schema
    fillMs = fillSqlite(join(dir, 'threadline.db'), all, total);
    writeFileSync(join(dir, 'filled'), String(fillMs));
  } else fillMs = Number(readFileSync(join(dir, 'filled'), 'utf8'));
  const store = new SqliteStore({ dataDir: dir });
  return {
    store,
    fillMs,
    file: join(dir, 'threadline.db'),
    done: async () => {
      await store.close();
      if (keep === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `work` once to warm, then timed `reps` times: min and median in ms. */
export async function timed(
  reps: number,
  work: () => Promise<unknown>,
): Promise<{ min: number; median: number }> {
  const ms: number[] = [];
  await work(); // warm: statements prepared, pages cached
  for (let r = 0; r < reps; r += 1) {
    const t = performance.now();
    await work();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { min: ms[0]!, median: ms[Math.floor(ms.length / 2)]! };
}
