/**
 * The turn index in PostgreSQL (the tables of migration 4 in `postgres-migrations.ts`): one
 * statement writes a turn's whole entry inside the transaction that stores the turn; searches and
 * counts use the SQL of `turn-search.ts` with `$n` placeholders and the `text_tsv` column.
 */
import type { PoolClient, QueryResultRow } from 'pg';
import { prefixed, storedTurn, TURN_COLUMNS, type TurnRow } from './rows';
import { turnIndexEntry, type TurnIndexEntry } from './turn-index';
import {
  numbered,
  planSearch,
  runFacets,
  runSearch,
  searchableText,
  type TurnFacetCounts,
  type TurnHits,
  type TurnQuery,
  type Where,
} from './turn-search';

type Query = <R extends QueryResultRow>(
  text: string,
  values: unknown[],
  on?: Pick<PoolClient, 'query'>,
) => Promise<R[]>;

const INSERT_ENTRY = `WITH ti AS (
    INSERT INTO turn_index (task_id, seq, interaction_id, agent_id, version_id, bundle_hash, user_id,
      created_at, day, intent, decision, deciding_rule, text_tsv)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
      to_tsvector('english', $13) || to_tsvector('english', $14))
    ON CONFLICT (task_id, seq) DO NOTHING
    RETURNING id
  ),
  r AS (
    INSERT INTO turn_index_rules (rule_id, result, rule_type, turn)
    SELECT x.a, x.b, x.c, ti.id FROM ti, unnest($15::text[], $16::text[], $17::text[]) AS x(a, b, c)
    ON CONFLICT DO NOTHING
  ),
  t AS (
    INSERT INTO turn_index_tools (tool, invoked, turn)
    SELECT x.a, x.b, ti.id FROM ti, unnest($18::text[], $19::boolean[]) AS x(a, b)
    ON CONFLICT DO NOTHING
  ),
  v AS (
    INSERT INTO turn_index_values (code, value_text, value_num, value_date, turn)
    SELECT x.a, x.b, x.c, x.d, ti.id FROM ti, unnest($20::text[], $21::text[], $22::float8[], $23::text[]) AS x(a, b, c, d)
    ON CONFLICT DO NOTHING
  )
  SELECT id FROM ti`;

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
    searchableText(e.message),
    searchableText(e.reply),
    e.rules.map((r) => r.ruleId),
    e.rules.map((r) => r.result),
    e.rules.map((r) => r.ruleType),
    e.tools.map((t) => t.tool),
    e.tools.map((t) => t.invoked),
    e.values.map((v) => v.code),
    e.values.map((v) => v.text),
    e.values.map((v) => v.num),
    e.values.map((v) => v.date),
  ];
}

/** Indexes one turn with one statement on `client` (the transaction storing the turn). */
export async function addToPostgresTurnIndex(
  client: Pick<PoolClient, 'query'>,
  entry: TurnIndexEntry,
): Promise<void> {
  await client.query(INSERT_ENTRY, entryValues(entry));
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
    return runFacets(pgRows(query, client), planSearch(q, allowedAgents, 'postgres', null), 'postgres');
  });
}

/** Turns read per fetch when indexing those stored before the index existed. */
const BACKFILL_BATCH = 1000;

/**
 * Indexes every stored turn, oldest first, on `client`, inside the migration's transaction (so
 * the turns are indexed once, whichever instance starts first). One sorted read, fetched in
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
        turnIndexEntry({ agentId: r.task_agent_id, userId: r.task_user_id }, storedTurn(r), r.seq),
      );
    if (rows.length < BACKFILL_BATCH) break;
  }
  await client.query('CLOSE unindexed');
}
