/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many have run. Append
 * new migrations at the end, never edit a released one.
 */
import type { Database } from 'better-sqlite3';

/** The agents tables, the same in SQLite and PostgreSQL. */
export const AGENTS_SCHEMA = `
  CREATE TABLE agents (
    id TEXT PRIMARY KEY,
    active_version TEXT NOT NULL,
    draft TEXT NOT NULL,
    draft_updated_at TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE agent_versions (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    tag TEXT,
    note TEXT NOT NULL,
    bundle TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (agent_id, id),
    UNIQUE (agent_id, tag)
  );
  CREATE TABLE agent_revision (id INTEGER PRIMARY KEY CHECK (id = 1), revision INTEGER NOT NULL);
  INSERT INTO agent_revision (id, revision) VALUES (1, 0);
  CREATE INDEX tasks_agent ON tasks (agent_id);
  `;

export const MIGRATIONS: readonly string[] = [
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
  // Branches by reference: a branch keeps only its own turns and inherits the first
  // `inherited_turns` turns of its thread from `inherits_from` (its parent, or the ancestor that ran
  // the last inherited turn, so that a chain holds no task that contributes nothing). A turn's `seq`
  // is its position in its thread, so a branch's own turns continue its parent's numbering.
  // Branches made before this migration hold copies of the turns before their fork: those copies
  // are dropped when they match the parent's turns (same interactions at the same positions); a
  // branch whose copies do not match keeps them all as its own (it inherits nothing).
  `
  ALTER TABLE tasks ADD COLUMN inherits_from TEXT REFERENCES tasks(id);
  ALTER TABLE tasks ADD COLUMN inherited_turns INTEGER NOT NULL DEFAULT 0;
  UPDATE tasks SET inherited_turns = COALESCE((
    SELECT fork.seq - 1 FROM turns AS fork
    WHERE fork.task_id = tasks.branch_of_task_id
      AND fork.interaction_id = tasks.branch_of_interaction_id
      AND (SELECT COUNT(*) FROM turns AS copy
           JOIN turns AS original ON original.task_id = tasks.branch_of_task_id
             AND original.seq = copy.seq AND original.interaction_id = copy.interaction_id
           WHERE copy.task_id = tasks.id AND copy.seq < fork.seq) = fork.seq - 1
  ), 0)
  WHERE branch_of_task_id IS NOT NULL;
  UPDATE tasks SET inherits_from = branch_of_task_id WHERE inherited_turns > 0;
  DELETE FROM turns WHERE seq <= (SELECT inherited_turns FROM tasks WHERE tasks.id = turns.task_id);
  `,
  // Lineage and bundles for /reference/v1: a task's branches by their origin, and every bundle a
  // client sent, by content hash and the agent it was sent to.
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
  // Agents created through the API: their published versions (immutable), the active one, the
  // draft, and a revision number every agent write bumps.
  AGENTS_SCHEMA,
  // The turn index (`GET /reference/v1/turns`): one row a stored turn (its `id` orders turns
  // newest last), its rules, tools and values, and its texts for full-text search (contentless
  // FTS5: the texts stay in `turns`). Written with each turn; turns stored before this migration
  // are indexed after it, oldest first (`SqliteTurnIndex.backfill`), helped by a temporary index.
  `
  CREATE TABLE turn_index (
    id INTEGER PRIMARY KEY,
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
    UNIQUE (task_id, seq)
  );
  CREATE INDEX turn_index_agent ON turn_index (agent_id, id);
  CREATE INDEX turn_index_decision ON turn_index (decision, id);
  CREATE INDEX turn_index_intent ON turn_index (intent, id);
  CREATE TABLE turn_index_rules (
    rule_id TEXT NOT NULL,
    result TEXT NOT NULL,
    rule_type TEXT NOT NULL,
    turn INTEGER NOT NULL,
    PRIMARY KEY (rule_id, result, turn)
  ) WITHOUT ROWID;
  CREATE INDEX turn_index_rules_turn ON turn_index_rules (turn, rule_id, result);
  CREATE TABLE turn_index_tools (
    tool TEXT NOT NULL,
    invoked INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    PRIMARY KEY (tool, turn)
  ) WITHOUT ROWID;
  CREATE INDEX turn_index_tools_turn ON turn_index_tools (turn, tool, invoked);
  CREATE TABLE turn_index_values (
    code TEXT NOT NULL,
    value_text TEXT NOT NULL,
    value_num REAL,
    value_date TEXT,
    turn INTEGER NOT NULL,
    PRIMARY KEY (code, turn)
  ) WITHOUT ROWID;
  CREATE VIRTUAL TABLE turn_index_text USING fts5(message, reply, content='', tokenize='porter unicode61');
  CREATE INDEX turns_unindexed ON turns (reply_created_at, task_id, seq);
  `,
  // The turns that invoked a tool, newest last: `tool=X:invoked` reads these alone rather than
  // every turn that considered X (a tool is often considered, seldom invoked).
  `
  CREATE INDEX turn_index_tools_invoked ON turn_index_tools (tool, turn) WHERE invoked = 1;
  `,
  // The thread list (`GET /reference/v1/tasks`): each task's `activity`, a number every new task
  // and every turn stored raises above all others, orders tasks by their latest activity. Tasks
  // stored before this migration are numbered in the order of their last reply (or creation).
  `
  ALTER TABLE tasks ADD COLUMN activity INTEGER NOT NULL DEFAULT 0;
  UPDATE tasks SET activity = ranked.n FROM (
    SELECT id, ROW_NUMBER() OVER (ORDER BY COALESCE(
      (SELECT MAX(reply_created_at) FROM turns WHERE turns.task_id = tasks.id), created_at), id) AS n
    FROM tasks
  ) AS ranked WHERE ranked.id = tasks.id;
  CREATE INDEX tasks_activity ON tasks (activity, agent_id);
  `,
  // The turn index in two places per turn: its row, and its one full-text row. A turn's rules with
  // their results, its tools, its decision, intent, parameters and values become terms of its
  // full-text row (the `terms` column, `turn-terms.ts`); its rules and tools (for the counts) and
  // its numbers and dates (for `code>n`, `code<n`) are JSON columns of its row. The index of the
  // layout before is dropped and built again from the stored turns after this migration, as
  // migration 5's was.
  `
  DROP TABLE turn_index_rules;
  DROP TABLE turn_index_tools;
  DROP TABLE turn_index_values;
  DROP TABLE turn_index_text;
  DROP TABLE turn_index;
  CREATE TABLE turn_index (
    id INTEGER PRIMARY KEY,
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
    rules TEXT NOT NULL,
    tools TEXT NOT NULL,
    numbers TEXT NOT NULL,
    dates TEXT NOT NULL,
    UNIQUE (task_id, seq)
  );
  CREATE INDEX turn_index_agent ON turn_index (agent_id, id);
  CREATE VIRTUAL TABLE turn_index_text USING fts5(message, reply, terms, content='', tokenize='porter unicode61');
  CREATE INDEX IF NOT EXISTS turns_unindexed ON turns (reply_created_at, task_id, seq);
  `,
  // FTS5 merges its segments between sends, in bounded steps (`SqliteTurnIndex.mergeStep`), not
  // in the send's transaction: on a large index, merging in the commit made one send in ten
  // tens of milliseconds slower. (Sixteen segments on one level are still merged at once.)
  `
  INSERT INTO turn_index_text (turn_index_text, rank) VALUES ('automerge', 0);
  `,
  // The engine state after a task's last own turn, kept with the task (`tip_seq` is that turn's
  // position): every send starts from it, and reading it from the turn's row walks past the turn's
  // trace (up to 8 MB of overflow pages, milliseconds on the request loop). Tasks from before this
  // migration have none until their next turn; their tip is read from the turn meanwhile.
  `
  ALTER TABLE tasks ADD COLUMN tip_seq INTEGER;
  ALTER TABLE tasks ADD COLUMN tip_state TEXT;
  `,
  // A turn's words and terms wait in a plain row, written in the turn's transaction, until the
  // writer moves them into the FTS5 table between sends, many at a time, or before a search reads
  // the index (`SqliteTurnIndex.indexStep`): an FTS5 row in a one-turn transaction cost a send
  // more than the rest of its index entry.
  `
  CREATE TABLE turn_index_pending (
    id INTEGER PRIMARY KEY,
    message TEXT NOT NULL,
    reply TEXT NOT NULL,
    terms TEXT NOT NULL
  );
  `,
  // A turn's whole entry waits in its pending row, not only its words: the turn's transaction
  // writes one row, where it wrote two (the index row with its two indexes cost a send as much
  // again), and the writer moves pending rows into `turn_index` and FTS5 together between sends.
  // A pending row's id is the id its index row gets, so turns keep their order. Words pending in
  // the layout before are moved into FTS5 first (their index rows exist).
  `
  INSERT INTO turn_index_text (rowid, message, reply, terms)
    SELECT id, message, reply, terms FROM turn_index_pending ORDER BY id;
  DROP TABLE turn_index_pending;
  CREATE TABLE turn_index_pending (
    id INTEGER PRIMARY KEY,
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
    rules TEXT NOT NULL,
    tools TEXT NOT NULL,
    numbers TEXT NOT NULL,
    dates TEXT NOT NULL,
    message TEXT NOT NULL,
    reply TEXT NOT NULL,
    terms TEXT NOT NULL
  );
  `,
  // Words are matched whole on both stores (`turn-words.ts`): the full-text table's tokenizer no
  // longer stems (PostgreSQL, which also ignored English stop words, now does neither), and it
  // holds the words folded as the query's are. The index is built again from the stored turns
  // after this migration, as migration 8's was.
  `
  DELETE FROM turn_index_pending;
  DELETE FROM turn_index;
  DROP TABLE turn_index_text;
  CREATE VIRTUAL TABLE turn_index_text USING fts5(message, reply, terms, content='', tokenize='unicode61');
  INSERT INTO turn_index_text (turn_index_text, rank) VALUES ('automerge', 0);
  CREATE INDEX IF NOT EXISTS turns_unindexed ON turns (reply_created_at, task_id, seq);
  `,
];

export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The data folder's schema (version ${current}) is newer than this service (${MIGRATIONS.length}).`,
    );
  }
  for (let version = current; version < MIGRATIONS.length; version += 1) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
