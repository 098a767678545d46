/**
 * The turn index at scale: a store filled with `--turns` turns (default 1,000,000 on SQLite; use
 * `--store postgres --turns 200000` for PostgreSQL, on a throwaway server of its own), then each
 * search and facet request timed `--reps` times through the store (min and median). The store is
 * filled in bulk with the store's own row format and index code (SQLite: ten thousand turns a
 * transaction; PostgreSQL: five thousand, each turn's index entry written by the statement the
 * store uses), since a million single-turn transactions would take most of an hour.
 *
 * Then what the index adds to a send, on that full store: sends through the service's own request
 * handling (in process, no socket: routing, validation, the engine, the store), one at a time to
 * ten tasks, in `--blocks` alternating blocks of `--sends` with the index written and without it.
 * "Without" is the same store with its index writer replaced by a no-op (only here, never in the
 * service); the index entry is still computed then, so that computation is timed on its own and
 * counted as part of the index's cost.
 *
 * The turns are the example agents' demo conversations run through the engine once, repeated with
 * other amounts, dates and times spread over a year, in tasks of ten turns over three agents.
 *
 *   npx tsx bench/turn-search.ts [--turns 1000000] [--store sqlite|postgres] [--reps 20] [--keep DIR]
 *     [--blocks 8] [--sends 150]
 *
 * Prints a Markdown table, and one `RESULT {json}` line.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { createApp } from '../server/app';
import { parseApiKeys } from '../server/auth/api-keys';
import { defaultDependencies } from '../server/default-dependencies';
import { addToPostgresTurnIndex, TOUCH_TASK } from '../server/store/postgres-turn-index';
import { taskToRow, turnToRow, TASK_COLUMNS, TURN_COLUMNS } from '../server/store/rows';
import { SqliteSendWrites } from '../server/store/sqlite-send-writes';
import { SqliteTurnIndex } from '../server/store/sqlite-turn-index';
import { term } from '../server/store/turn-terms';
import { turnIndexEntry, type TurnIndexEntry } from '../engine/turn-index-entry';
import { PostgresStore } from '../server/store/postgres-store';
import type { Store } from '../server/store/store';
import { parseTurnQuery } from '../server/store/turn-search';
import { findPostgresBin, startPostgresServer } from '../tools/lib/postgres-server';
import { argValue, numberArg } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { named, samples, sqliteStoreOf, taskOf, timed, turnOf, type Sample } from './lib/generated-turns';

const KIND = argValue('store') === 'postgres' ? 'postgres' : 'sqlite';
const TURNS = numberArg('turns', KIND === 'postgres' ? 200_000 : 1_000_000);
const REPS = numberArg('reps', 20);
const BLOCKS = numberArg('blocks', 8);
const SENDS = numberArg('sends', 150);

async function openStore(
  all: Sample[][],
): Promise<{ store: Store; fillMs: number; file?: string; done: () => Promise<void> }> {
  // `--keep DIR`: fill DIR once and leave it there, so that a second run measures the same store.
  if (KIND === 'sqlite') return sqliteStoreOf(all, TURNS, argValue('keep'));
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const server = await startPostgresServer(bin, { durable: false });
  const store = await PostgresStore.open({ url: server.adminUrl });
  const fillMs = await fillPostgres(server.adminUrl, all);
  return { store, fillMs, done: async () => (await store.close(), server.stop()) };
}

/** Writes the turns straight into PostgreSQL, with the index entries the store would write. */
async function fillPostgres(url: string, all: Sample[][]): Promise<number> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const positional = (columns: string) =>
    columns
      .split(', ')
      .map((_, i) => `$${i + 1}`)
      .join(', ');
  const ordered = (columns: string, row: object) =>
    columns.split(', ').map((c) => (row as Record<string, unknown>)[c]);
  const insertTask = `INSERT INTO tasks (${TASK_COLUMNS}) VALUES (${positional(TASK_COLUMNS)})`;
  const insertTurn = `INSERT INTO turns (${TURN_COLUMNS}) VALUES (${positional(TURN_COLUMNS)})`;
  try {
    for (let from = 0; from < TURNS; from += 5000) {
      await client.query('BEGIN');
      for (let i = from; i < Math.min(TURNS, from + 5000); i += 1) {
        const { task, sample, seq } = taskOf(all, i, TURNS);
        if (seq === 1) await client.query(insertTask, ordered(TASK_COLUMNS, taskToRow(task)));
        const turn = turnOf(sample, i, task.id, TURNS);
        await client.query(insertTurn, ordered(TURN_COLUMNS, turnToRow(turn, seq)));
        await addToPostgresTurnIndex(client, turnIndexEntry(task, turn, seq, term));
      }
      await client.query('COMMIT');
    }
    await client.query('VACUUM ANALYZE'); // as autovacuum leaves a table: visibility map set, statistics read
  } finally {
    await client.end();
  }
  return performance.now() - started;
}

const SEARCHES: [string, Record<string, string[]>][] = [
  ['rule blocked (rule=DISPUTE_WINDOW:blocked)', { rule: ['DISPUTE_WINDOW:blocked'] }],
  [
    'tool invoked and amount over 500',
    { tool: ['DISPUTE_CHARGE:invoked'], param: ['transaction-amount>500'] },
  ],
  ['decision and agent', { decision: ['request_confirmation'], agent: ['flight-changes'] }],
  ['text (q=coffee corner)', { q: ['coffee corner'] }],
  ['text and agent (q=damaged, agent=shop-returns)', { q: ['damaged'], agent: ['shop-returns'] }],
  ['a rare value (param=transaction-amount>1000: 1 turn in 400)', { param: ['transaction-amount>1000'] }],
  ['a word no turn holds (q=zeppelin)', { q: ['zeppelin'] }],
];
/** Searches of two filters, paged: an agent beside a term, or beside words. */
const PAGED: [string, Record<string, string[]>][] = [
  [
    'rule and agent (rule=DISPUTE_WINDOW:blocked, agent=card-disputes)',
    { rule: ['DISPUTE_WINDOW:blocked'], agent: ['card-disputes'] },
  ],
  ['agent alone (agent=card-disputes)', { agent: ['card-disputes'] }],
];
const FACETS: [string, Record<string, string[]>][] = [
  ['facets of rule=DISPUTE_WINDOW:blocked', { rule: ['DISPUTE_WINDOW:blocked'] }],
  ['facets of tool=DISPUTE_CHARGE:invoked', { tool: ['DISPUTE_CHARGE:invoked'] }],
  ['facets of agent=card-disputes (a third of the store)', { agent: ['card-disputes'] }],
];

/**
 * PostgreSQL's index writer switched off and on again, for the send-cost comparison only: in place
 * of the store's `indexTurn`, only what a send's statement does besides indexing (its task moved
 * to the top of the thread list). (SQLite writes a send's turn in its writer thread, on a
 * connection of its own, out of this switch's reach: its index is measured where it is written,
 * see `sqliteWriteCost`.)
 */
function indexSwitch(store: Store): { off(): void; on(): void } {
  const target = store as unknown as Record<string, unknown>;
  const withoutIndex = async (
    client: Pick<pg.PoolClient, 'query'>,
    entry: TurnIndexEntry,
    options?: { touchTask: boolean },
  ) => void (options?.touchTask && (await client.query(TOUCH_TASK, [entry.taskId])));
  return {
    off: () => void (target.indexTurn = withoutIndex),
    on: () => void delete target.indexTurn,
  };
}

/**
 * SQLite: the writes of a send (`SqliteSendWrites.appendAt`: the turn, the task's place, the index
 * entry, one transaction) on the full store, with the index and with a no-op in its place, in
 * alternating blocks of `--sends` appends of the sample turns to ten new tasks, on a connection of
 * the bench's own (what the service's writer thread does for each send). After each append with
 * the index, what the writer does between sends (moving the turn's entry into the index and FTS5,
 * `SqliteTurnIndex.catchUp`, then `mergeStep` until there is no merging left) is timed apart: it
 * is work the index costs, though no send waits for it. (Sends one at a time: each is moved alone;
 * the writer moves up to 50 at once when sends come faster than it.)
 */
function sqliteWriteCost(
  file: string,
  all: Sample[][],
): { with: number[]; without: number[]; merging: number[] } {
  const db = new Database(file);
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const index = new SqliteTurnIndex(db);
  const noIndex = { add: () => undefined } as unknown as SqliteTurnIndex;
  const writes = { with: new SqliteSendWrites(db, index), without: new SqliteSendWrites(db, noIndex) };
  const samplesFlat = all.flat();
  const tasks = Array.from({ length: 10 }, (_, t) => ({ id: `write-cost-${Date.now()}-${t}`, turns: 0 }));
  const insertTask = db.prepare(`INSERT INTO tasks (${TASK_COLUMNS}) VALUES (${named(TASK_COLUMNS)})`);
  for (const t of tasks) insertTask.run(taskToRow({ ...taskOf(all, 0, TURNS).task, id: t.id }));
  let n = 0;
  const append = (w: SqliteSendWrites) => {
    const task = tasks[n % tasks.length]!;
    const turn = turnOf(samplesFlat[n % samplesFlat.length]!, TURNS + n, task.id, TURNS);
    n += 1;
    if (!w.appendAt(task.id, task.turns, turn)) throw new Error('the thread moved');
    task.turns += 1;
  };
  const times = { with: [] as number[], without: [] as number[], merging: [] as number[] };
  for (let w = 0; w < 50; w += 1) {
    append(writes.with); // warm
    index.catchUp();
    while (index.mergeStep());
  }
  for (let b = 0; b < BLOCKS; b += 1) {
    const indexed = b % 4 === 0 || b % 4 === 3;
    for (let i = 0; i < SENDS; i += 1) {
      let t = performance.now();
      append(indexed ? writes.with : writes.without);
      (indexed ? times.with : times.without).push(performance.now() - t);
      if (!indexed) continue;
      t = performance.now();
      index.catchUp();
      while (index.mergeStep());
      times.merging.push(performance.now() - t);
    }
  }
  db.close();
  return times;
}

interface SendCost {
  withIndex: { median: number; min: number; perSecond: number };
  without: { median: number; min: number; perSecond: number };
  entryUs: number;
  count: number;
  sends: { with: number[]; without: number[] };
}

/** Sends through the app in process, alternating blocks with and without the index written. */
async function sendCost(store: Store, all: Sample[][]): Promise<SendCost> {
  const app = createApp({
    store,
    dependencies: defaultDependencies(),
    apiKeys: parseApiKeys('bench=*'),
    log: () => undefined,
  });
  const post = async (path: string, body: unknown) => {
    const r = await app.request(path, {
      method: 'POST',
      headers: { 'x-service-api-key': 'bench', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as { id: string };
  };
  const tasks: string[] = [];
  for (let t = 0; t < 10; t += 1)
    tasks.push((await post('/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: `send-${t}` })).id);
  let n = 0;
  const send = () =>
    post('/v1/messaging/messages', {
      type: 'message',
      task_id: tasks[n % tasks.length],
      text: `I want to dispute a charge of $${(n++ * 37) % 900} at Coffee Corner from ${n % 20} days ago`,
    });
  // SQLite: every send writes the index (its cost is measured in `sqliteWriteCost`).
  const index = KIND === 'postgres' ? indexSwitch(store) : { on() {}, off() {} };
  const times = { with: [] as number[], without: [] as number[] };
  for (let w = 0; w < 50; w += 1) await send(); // warm
  for (let b = 0; b < BLOCKS; b += 1) {
    // ABBA order, so neither side always runs first.
    const indexed = b % 4 === 0 || b % 4 === 3;
    if (indexed) index.on();
    else index.off();
    for (let i = 0; i < SENDS; i += 1) {
      const t = performance.now();
      await send();
      (indexed ? times.with : times.without).push(performance.now() - t);
    }
  }
  index.on();
  // The entry computed for each turn (also done "without"): timed alone over the sample turns.
  const turns = all
    .flat()
    .map((sample, i) => ({ task: taskOf(all, i, TURNS).task, turn: turnOf(sample, i, 'x', TURNS) }));
  const t = performance.now();
  const rounds = 2000;
  for (let r = 0; r < rounds; r += 1) for (const x of turns) turnIndexEntry(x.task, x.turn, 1, term);
  const entryUs = ((performance.now() - t) * 1000) / (rounds * turns.length);
  const summary = (ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, perSecond: 1000 / mean };
  };
  return {
    withIndex: summary(times.with),
    without: summary(times.without),
    entryUs,
    count: SENDS * BLOCKS,
    sends: times,
  };
}

const all = samples();
const { store, fillMs, file, done } = await openStore(all);
try {
  const rows: { measure: string; min: number; median: number }[] = [];
  for (const [name, params] of [...SEARCHES, ...PAGED]) {
    const q = parseTurnQuery(params);
    // Pages 1, 2 and 5 of 50, each from the cursor the page before it gave (as the UI pages).
    const cursors: (number | null)[] = [null];
    while (cursors.length < 5) {
      const next = (await store.searchTurns(q, null, cursors[cursors.length - 1]!, 50)).next;
      if (next === null) break;
      cursors.push(next);
    }
    for (const page of [1, 2, 5]) {
      if (cursors.length < page) break;
      rows.push({
        measure: `search: ${name}, page ${page} of 50`,
        ...(await timed(REPS, () => store.searchTurns(q, null, cursors[page - 1]!, 50))),
      });
    }
  }
  for (const [name, params] of FACETS) {
    const q = parseTurnQuery(params);
    rows.push({ measure: name, ...(await timed(REPS, () => store.turnFacets(q, null))) });
  }
  const cost = await sendCost(store, all);
  const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
  const mean = (ms: number[]) => ms.reduce((a, b) => a + b, 0) / ms.length;
  // What the index adds to a send, in ms: SQLite measures it where it is written (the writes of a
  // send with and without it; means, since merging is a few costly writes among many cheap ones)
  // and counts it against the whole send; PostgreSQL switches it off in the store and compares
  // whole sends. Either way the entry's computation is counted as its cost.
  const writes = file ? sqliteWriteCost(file, all) : undefined;
  const sendMs = writes ? median([...cost.sends.with, ...cost.sends.without]) : cost.withIndex.median;
  const indexMs = writes
    ? mean(writes.with) - mean(writes.without) + cost.entryUs / 1000
    : cost.withIndex.median - (cost.without.median - cost.entryUs / 1000);
  const added = indexMs / (sendMs - indexMs);
  console.log(
    `\n${today()}, ${machine()}; ${KIND}, ${TURNS.toLocaleString('en')} turns (written in ${(fillMs / 1000).toFixed(0)} s, ${((fillMs * 1000) / TURNS).toFixed(0)} µs a turn), ${REPS} repetitions\n`,
  );
  console.log('| measure | min ms | median ms |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.measure} | ${r.min.toFixed(1)} | ${r.median.toFixed(1)} |`);
  console.log(
    writes
      ? `\nSends (${cost.count}, all with the index): median ${sendMs.toFixed(2)} ms (min ${Math.min(...cost.sends.with, ...cost.sends.without).toFixed(2)}). A send's writes (${BLOCKS} alternating blocks of ${SENDS}), mean / median / max: with the index ${mean(writes.with).toFixed(3)} / ${median(writes.with).toFixed(3)} / ${Math.max(...writes.with).toFixed(1)} ms, without ${mean(writes.without).toFixed(3)} / ${median(writes.without).toFixed(3)} / ${Math.max(...writes.without).toFixed(1)} ms; the entry alone ${cost.entryUs.toFixed(1)} µs; the index adds ${indexMs.toFixed(3)} ms, ${(added * 100).toFixed(1)}% of a send without it; moving its entry in and merging between sends ${mean(writes.merging).toFixed(3)} ms a send on average (max ${Math.max(...writes.merging).toFixed(1)}), which no send waits for`
      : `\nSends (${cost.count}, ${BLOCKS} alternating blocks): with the index median ${cost.withIndex.median.toFixed(2)} ms (min ${cost.withIndex.min.toFixed(2)}, ${cost.withIndex.perSecond.toFixed(0)}/s); without median ${cost.without.median.toFixed(2)} ms (min ${cost.without.min.toFixed(2)}, ${cost.without.perSecond.toFixed(0)}/s); the entry alone ${cost.entryUs.toFixed(1)} µs; the index adds ${(added * 100).toFixed(1)}% to the median send`,
  );
  console.log(
    `RESULT ${JSON.stringify({ store: KIND, turns: TURNS, reps: REPS, fillMs, rows, sendMs, indexMs, added, mergingMs: writes ? mean(writes.merging) : null })}`,
  );
} finally {
  await done();
}
