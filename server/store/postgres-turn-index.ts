/**
 * The turn index in PostgreSQL (the table of migration 7 in `postgres-migrations.ts`): one row
 * per turn, written inside the transaction that stores the turn, with its rules and tools (for
 * the counts) and its numbers and dates (for comparisons) as JSON, the words of its message and
 * reply as `text_tsv`, and its terms as numbers (`terms`). Searches and counts use the SQL of
 * `turn-search.ts` with `$n` placeholders.
 */
import type { PoolClient, QueryResultRow } from 'pg';
import { prefixed, storedTurn, TURN_COLUMNS, type TurnRow } from './rows';
import { turnIndexEntry, type TurnIndexEntry } from '../../engine/turn-index-entry';
import { datesColumn, numbersColumn, rulesColumn, toolsColumn } from './turn-index-columns';
import {
  numbered,
  planSearch,
  runCount,
  runFacets,
  runSearch,
  type TurnFacetCounts,
  type TurnHits,
  type TurnQuery,
  type Where,
} from './turn-search';
import { term, termNumber } from './turn-terms';
import { indexedText } from './turn-words';

type Query = <R extends QueryResultRow>(
  text: string,
  values: unknown[],
  on?: Pick<PoolClient, 'query'>,
) => Promise<R[]>;

const INSERT_ENTRY = `INSERT INTO turn_index (task_id, seq, interaction_id, agent_id, version_id, bundle_hash, user_id,
      created_at, day, intent, decision, deciding_rule, text_tsv, terms, rules, tools, numbers, dates)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
      to_tsvector('simple', $13) || to_tsvector('simple', $14), $15::bigint[], $16, $17, $18, $19)
    ON CONFLICT (task_id, seq) DO NOTHING`;

function entryValues(e: TurnIndexEntry): unknown[] {
  return [
    e.taskId,
    e.seq,
    e.interactionId,
    e.agentId,
    e.versionId,
    e.bundleHash,
    e.userId,
    e.createdAt,
    e.createdAt.slice(0, 10),
    e.intent,
    e.decision,
    e.decidingRule,
    indexedText(e.message),
    indexedText(e.reply),
    e.terms.map(termNumber),
    rulesColumn(e),
    toolsColumn(e),
    numbersColumn(e),
    datesColumn(e),
  ];
}

/** A task moves to the top of the thread list: its `activity` above every other's. */
export const TOUCH_TASK = `UPDATE tasks SET activity = nextval('tasks_activity_seq') WHERE id = $1`;

/**
 * Indexes one turn with one statement on `client` (the transaction storing the turn), prepared
 * once per connection. With `touchTask`, the same statement also moves the turn's task to the top
 * of the thread list (`TOUCH_TASK`, on the entry's task): a send's transaction pays one round trip
 * for both.
 */
export async function addToPostgresTurnIndex(
  client: Pick<PoolClient, 'query'>,
  entry: TurnIndexEntry,
  { touchTask = false } = {},
): Promise<void> {
  await client.query(
    touchTask
      ? {
          name: 'touch-task-index-turn',
          text: `WITH touched AS (${TOUCH_TASK}) ${INSERT_ENTRY}`,
          values: entryValues(entry),
        }
      : { name: 'index-turn', text: INSERT_ENTRY, values: entryValues(entry) },
  );
}

const pgRows =
  (query: Query, on?: Pick<PoolClient, 'query'>) =>
  (w: Where): Promise<Record<string, unknown>[]> =>
    query<Record<string, unknown>>(numbered(w.sql), w.args, on);

export function searchPostgresTurns(
  query: Query,
  q: TurnQuery,
  allowedAgents: readonly string[] | null,
  before: number | null,
  limit: number,
): Promise<TurnHits> {
  return runSearch(pgRows(query), planSearch(q, allowedAgents, 'postgres', before), limit);
}

export function postgresTurnFacets(
  transaction: <T>(work: (client: PoolClient) => Promise<T>) => Promise<T>,
  query: Query,
  q: TurnQuery,
  allowedAgents: readonly string[] | null,
): Promise<TurnFacetCounts> {
  // One REPEATABLE READ transaction: every count from the same snapshot.
  return transaction(async (client) => {
    await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    return runFacets(pgRows(query, client), planSearch(q, allowedAgents, 'postgres', null));
  });
}

export async function countPostgresTurns(
  query: Query,
  q: TurnQuery,
  allowedAgents: readonly string[] | null,
): Promise<number> {
  return runCount(pgRows(query), planSearch(q, allowedAgents, 'postgres', null));
}

/** Turns read per fetch when indexing those stored before the index existed. */
const BACKFILL_BATCH = 1000;

/**
 * Indexes every stored turn, oldest first, on `client`, inside the migration's transaction (so
 * the turns are indexed once, whichever instance starts first), into an empty index. One sorted read, fetched in
 * batches through a cursor.
 */
export async function backfillPostgresTurnIndex(client: PoolClient): Promise<void> {
  await client.query(
    `DECLARE unindexed NO SCROLL CURSOR FOR
     SELECT ${prefixed(TURN_COLUMNS, 'turns')}, tasks.agent_id AS task_agent_id, tasks.user_id AS task_user_id
     FROM turns JOIN tasks ON tasks.id = turns.task_id
     ORDER BY turns.reply_created_at, turns.task_id, turns.seq`,
  );
  for (;;) {
    const { rows } = await client.query<TurnRow & { task_agent_id: string; task_user_id: string }>(
      `FETCH ${BACKFILL_BATCH} FROM unindexed`,
    );
    for (const r of rows)
      await addToPostgresTurnIndex(
        client,
        turnIndexEntry({ agentId: r.task_agent_id, userId: r.task_user_id }, storedTurn(r), r.seq, term),
      );
    if (rows.length < BACKFILL_BATCH) break;
  }
  await client.query('CLOSE unindexed');
}
