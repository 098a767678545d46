/**
 * The PostgreSQL schema, as versioned migrations applied in order at start; the table
 * `threadline_schema` records the versions applied. Append new migrations at the end, never edit
 * a released one.
 *
 * The same ideas as the SQLite schema (`migrations.ts`, in its final state): a trace is stored
 * once as the JSON text it is answered with (TEXT, not jsonb, so it is never re-serialised), and a
 * rerun branch stores only its own turns, inheriting the first `inherited_turns` turns of its
 * thread from `inherits_from` (the task that ran the last of them).
 */
import type { PoolClient } from 'pg';
import { AGENTS_SCHEMA } from './migrations';
import { backfillPostgresTurnIndex } from './postgres-turn-index';

/**
 * The migrations that create the turn index (4) and lay it out anew (7, 8): when one ran, the
 * stored turns are indexed once after the last migration, in the layout of this code.
 */
const TURN_INDEX_MIGRATIONS = new Set([4, 7, 8]);

export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    origin TEXT NOT NULL,
    title TEXT NOT NULL,
    welcome_message TEXT,
    suggestions TEXT NOT NULL,
    version_id TEXT NOT NULL,
    version_tag TEXT,
    clock TEXT NOT NULL,
    initial_state TEXT NOT NULL,
    branch_of_task_id TEXT REFERENCES tasks(id),
    branch_of_interaction_id TEXT,
    inherits_from TEXT REFERENCES tasks(id),
    inherited_turns INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );
  CREATE TABLE turns (
    task_id TEXT NOT NULL REFERENCES tasks(id),
    seq INTEGER NOT NULL,
    interaction_id TEXT NOT NULL,
    user_message_id TEXT NOT NULL,
    user_text TEXT NOT NULL,
    user_created_at TEXT NOT NULL,
    reply_text TEXT NOT NULL,
    reply_suggestions TEXT NOT NULL,
    reply_created_at TEXT NOT NULL,
    trace TEXT NOT NULL,
    state TEXT NOT NULL,
    bundle_hash TEXT,
    version_id TEXT NOT NULL,
    PRIMARY KEY (task_id, seq),
    UNIQUE (task_id, interaction_id)
  );
  `,
  // Lineage and bundles for /reference/v1 (as SQLite migration 3): a task's branches by their
  // origin, and every bundle a client sent, by content hash and the agent it was sent to.
  `
  CREATE INDEX tasks_branch_of ON tasks (branch_of_task_id);
  CREATE TABLE bundles (
    hash TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (hash, agent_id)
  );
  `,
  // Agents created through the API (as SQLite migration 4).
  AGENTS_SCHEMA,
  // The turn index (as SQLite migration 5): one row a stored turn, its rules, tools and values,
  // and its texts as a tsvector for full-text search. Turns stored before this migration are
  // indexed right after it, in the same transaction (`backfillPostgresTurnIndex`).
  `
  CREATE TABLE turn_index (
    id BIGSERIAL PRIMARY KEY,
    task_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    interaction_id TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    version_id TEXT NOT NULL,
    bundle_hash TEXT,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    day TEXT NOT NULL,
    intent TEXT NOT NULL,
    decision TEXT NOT NULL,
    deciding_rule TEXT,
    text_tsv TSVECTOR NOT NULL,
    UNIQUE (task_id, seq)
  );
  CREATE INDEX turn_index_agent ON turn_index (agent_id, id);
  CREATE INDEX turn_index_decision ON turn_index (decision, id);
  CREATE INDEX turn_index_intent ON turn_index (intent, id);
  CREATE INDEX turn_index_words ON turn_index USING GIN (text_tsv);
  CREATE TABLE turn_index_rules (
    rule_id TEXT NOT NULL,
    result TEXT NOT NULL,
    rule_type TEXT NOT NULL,
    turn BIGINT NOT NULL,
    PRIMARY KEY (rule_id, result, turn)
  );
  CREATE INDEX turn_index_rules_turn ON turn_index_rules (turn, rule_id, result);
  CREATE TABLE turn_index_tools (
    tool TEXT NOT NULL,
    invoked BOOLEAN NOT NULL,
    turn BIGINT NOT NULL,
    PRIMARY KEY (tool, turn)
  );
  CREATE INDEX turn_index_tools_turn ON turn_index_tools (turn, tool, invoked);
  CREATE TABLE turn_index_values (
    code TEXT NOT NULL,
    value_text TEXT NOT NULL,
    value_num DOUBLE PRECISION,
    value_date TEXT,
    turn BIGINT NOT NULL,
    PRIMARY KEY (code, turn)
  );
  `,
  // As in SQLite: the turns that invoked a tool, for `tool=X:invoked`.
  `
  CREATE INDEX turn_index_tools_invoked ON turn_index_tools (tool, turn) WHERE invoked;
  `,
  // The thread list (as SQLite migration 7): each task's `activity`, drawn from a sequence by every
  // new task and every turn stored, orders tasks by their latest activity. Tasks stored before this
  // migration are numbered in the order of their last reply (or creation).
  `
  CREATE SEQUENCE tasks_activity_seq AS BIGINT;
  ALTER TABLE tasks ADD COLUMN activity BIGINT;
  UPDATE tasks SET activity = ranked.n FROM (
    SELECT id, ROW_NUMBER() OVER (ORDER BY COALESCE(
      (SELECT MAX(reply_created_at) FROM turns WHERE turns.task_id = tasks.id), created_at), id) AS n
    FROM tasks
  ) AS ranked WHERE ranked.id = tasks.id;
  SELECT setval('tasks_activity_seq', COALESCE((SELECT MAX(activity) FROM tasks), 0) + 1, false);
  ALTER TABLE tasks ALTER COLUMN activity SET DEFAULT nextval('tasks_activity_seq');
  ALTER TABLE tasks ALTER COLUMN activity SET NOT NULL;
  CREATE INDEX tasks_activity ON tasks (activity, agent_id);
  `,
  // The turn index in one row per turn (as SQLite migration 8): with its rules and tools (for the
  // counts) and its numbers and dates (for comparisons) as JSON, its words as a tsvector, and its
  // terms (`turn-terms.ts`: rules with their results, tools, decision, intent, parameters and
  // values) as an array of numbers, each with a GIN index. Built again from the stored turns
  // right after.
  `
  DROP TABLE turn_index_rules, turn_index_tools, turn_index_values, turn_index;
  CREATE TABLE turn_index (
    id BIGSERIAL PRIMARY KEY,
    task_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    interaction_id TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    version_id TEXT NOT NULL,
    bundle_hash TEXT,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    day TEXT NOT NULL,
    intent TEXT NOT NULL,
    decision TEXT NOT NULL,
    deciding_rule TEXT,
    text_tsv TSVECTOR NOT NULL,
    terms BIGINT[] NOT NULL,
    rules TEXT NOT NULL,
    tools TEXT NOT NULL,
    numbers JSONB NOT NULL,
    dates JSONB NOT NULL,
    UNIQUE (task_id, seq)
  );
  CREATE INDEX turn_index_agent ON turn_index (agent_id, id);
  CREATE INDEX turn_index_words ON turn_index USING GIN (text_tsv);
  CREATE INDEX turn_index_terms ON turn_index USING GIN (terms);
  `,
  // Words are matched whole, as on SQLite (`turn-words.ts`): the `simple` configuration, neither
  // stemming nor leaving out English stop words, over the words folded as the query's are. Built
  // again from the stored turns right after.
  `
  TRUNCATE turn_index;
  `,
];

/** Any constant shared by every instance: the key of the advisory lock migrations run under. */
const MIGRATION_LOCK = 0x7468_7264; // 'thrd'

/**
 * Brings the schema up to date in one transaction under a transaction-level advisory lock, so
 * instances starting at once apply each migration exactly once: the others wait for the lock,
 * then find nothing left to do.
 */
export async function migratePostgres(client: PoolClient): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS threadline_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>(
      'SELECT COALESCE(MAX(version), 0) AS version FROM threadline_schema',
    );
    const current = rows[0]!.version;
    if (current > POSTGRES_MIGRATIONS.length) {
      throw new Error(
        `The database's schema (version ${current}) is newer than this service (${POSTGRES_MIGRATIONS.length}).`,
      );
    }
    let reindex = false;
    for (let version = current; version < POSTGRES_MIGRATIONS.length; version += 1) {
      await client.query(POSTGRES_MIGRATIONS[version]!);
      await client.query('INSERT INTO threadline_schema (version) VALUES ($1)', [version + 1]);
      if (TURN_INDEX_MIGRATIONS.has(version + 1)) reindex = true;
    }
    if (reindex) await backfillPostgresTurnIndex(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
