/**
 * The PostgreSQL store (node-postgres, one pool per instance), for several service instances
 * sharing one database. Same schema ideas as the SQLite store: a trace is stored once as JSON
 * text and answered as stored; a branch stores its own turns and reads the rest through its chain.
 *
 * Ordering across instances: `appendTurn` runs in one transaction that first locks the task's row
 * (`SELECT … FOR NO KEY UPDATE`), then reads the state after the thread's last turn and the
 * thread's length, calls `next` with them (awaiting it while the lock is held) and inserts the
 * turn. The service computes a turn before, from `threadTip`, and its `next` only checks that the
 * thread has not moved since; only when it keeps moving does it compute the turn in `next`. A second writer of the task, in this instance or another, waits on
 * the row lock until the first commits, then reads the state the first left (READ COMMITTED takes
 * a new snapshot per statement). Turns are thus applied one at a time, in the order they are
 * committed, which is the order they are acknowledged. Each transaction locks exactly one task
 * row, so writers cannot wait on each other in a cycle: no deadlock. `NO KEY UPDATE` rather than
 * `UPDATE` lets a rerun of the task (whose new branch row references it) proceed meanwhile.
 *
 * Durability: the answer is sent after COMMIT returns, and PostgreSQL's default
 * `synchronous_commit = on` has flushed the commit to its WAL by then, so neither `kill -9` of an
 * instance nor a crash of the database server loses an acknowledged turn.
 *
 * A database that cannot be reached turns every call into a `StoreUnavailableError` (503); the
 * pool opens new connections when it is back.
 */
import pg from 'pg';
import { rowsToAgents, type AgentRow, type AgentVersionRow } from './agent-rows';
import { migratePostgres } from './postgres-migrations';
import {
  prefixed,
  rowToTask,
  rowToTurn,
  TASK_COLUMNS,
  taskToRow,
  TURN_COLUMNS,
  turnToRow,
  type TaskRow,
  type TurnRow,
} from './rows';
import {
  StoreUnavailableError,
  type AgentDraft,
  type StoredAgent,
  type StoredAgentVersion,
  type ForkPoint,
  type ThreadTip,
  type PageRequest,
  type Store,
  type StoredBundle,
  type StoreHealth,
  type TaskRecord,
  type TaskTraces,
  type TracePage,
  type NewTurn,
  type TurnConfigRecord,
  type TurnRecord,
} from './store';
import type { EngineState } from '../../engine/contract';
import {
  addToPostgresTurnIndex,
  countPostgresTurns,
  postgresTurnFacets,
  searchPostgresTurns,
} from './postgres-turn-index';
import { indexEntryAt } from './index-entry-at';
import type { TurnIndexEntry } from '../../engine/turn-index-entry';
import { runTaskList, type TaskListPage, type TaskListQuery } from './task-list';
import { numbered, type TurnFacetCounts, type TurnHits, type TurnQuery, type Where } from './turn-search';
import { parseStored } from './damaged-values';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** Connections in this instance's pool (default 10). */
  poolSize?: number;
  /** How long a call waits for a connection before the database counts as unreachable (ms). */
  connectTimeoutMs?: number;
}

/** Positions ($n) of a statement's parameters, from the column list. */
const positional = (columns: string, from = 1) =>
  columns
    .split(', ')
    .map((_, i) => `$${i + from}`)
    .join(', ');

/**
 * The segments of task `$1`'s thread, as in the SQLite store (`sqlite-store.ts`, CHAIN): each task
 * of its inheritance chain with the positions it contributes, `after_seq < seq <= upto_seq`,
 * walked until the segments reach back to position `$2`.
 */
const CHAIN = `WITH RECURSIVE chain(task_id, parent_id, after_seq, upto_seq) AS (
    SELECT id, inherits_from, inherited_turns::bigint, 9223372036854775807::bigint FROM tasks WHERE id = $1
    UNION ALL
    SELECT tasks.id, tasks.inherits_from, tasks.inherited_turns::bigint, LEAST(chain.upto_seq, chain.after_seq)
    FROM chain JOIN tasks ON tasks.id = chain.parent_id
    WHERE LEAST(chain.upto_seq, chain.after_seq) > $2::bigint
  )`;
/** The turns of the chain's segments in the window of positions `$2 < seq <= $3`. */
const CHAIN_TURNS = `chain JOIN turns ON turns.task_id = chain.task_id
    AND turns.seq > GREATEST(chain.after_seq, $2::bigint) AND turns.seq <= LEAST(chain.upto_seq, $3::bigint)`;
/** The task's agent and thread length (its last own position, or what it inherits). */
const LENGTH = `SELECT tasks.agent_id, tasks.user_id, COALESCE((SELECT MAX(seq) FROM turns WHERE task_id = tasks.id), tasks.inherited_turns) AS length
  FROM tasks WHERE tasks.id = $1`;

const SQL = {
  insertTask: `INSERT INTO tasks (${TASK_COLUMNS}, inherits_from, inherited_turns) VALUES (${positional(TASK_COLUMNS)}, $15, $16)`,
  getTask: `SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1`,
  renameTask: `UPDATE tasks SET title = $2 WHERE id = $1 RETURNING id`,
  /**
   * Locks the task's row. The thread's length is read by the next statement, not this one: a
   * statement that waited for the lock sees the locked row afresh but the rest of the database as
   * when it started, so it would miss the turn the previous holder just committed.
   */
  lockTask: `SELECT initial_state FROM tasks WHERE id = $1 FOR NO KEY UPDATE`,
  insertTurn: `INSERT INTO turns (${TURN_COLUMNS}) VALUES (${positional(TURN_COLUMNS)})`,
  length: LENGTH,
  turnsIn: `${CHAIN} SELECT ${prefixed(TURN_COLUMNS, 'turns')} FROM ${CHAIN_TURNS} ORDER BY turns.seq`,
  /** The task's agent and length with a page of its traces, in one statement: one snapshot. */
  tracePage: `${CHAIN}, head AS (${LENGTH})
    SELECT head.agent_id, head.length, page.trace FROM head
    LEFT JOIN (SELECT turns.seq, turns.trace FROM ${CHAIN_TURNS}) AS page ON true ORDER BY page.seq`,
  turnById: `${CHAIN} SELECT ${prefixed(TURN_COLUMNS, 'turns')} FROM chain JOIN turns ON turns.task_id = chain.task_id
    AND turns.interaction_id = $3 AND turns.seq > chain.after_seq AND turns.seq <= chain.upto_seq`,
  /** The position alone: never the trace. */
  seqById: `${CHAIN} SELECT turns.seq FROM chain JOIN turns ON turns.task_id = chain.task_id
    AND turns.interaction_id = $3 AND turns.seq > chain.after_seq AND turns.seq <= chain.upto_seq`,
  ownerAt: `${CHAIN} SELECT turns.task_id FROM ${CHAIN_TURNS}`,
  stateAt: `${CHAIN} SELECT turns.state FROM ${CHAIN_TURNS}`,
  turnConfigs: `${CHAIN} SELECT turns.interaction_id, turns.user_text, turns.bundle_hash, turns.version_id FROM ${CHAIN_TURNS} ORDER BY turns.seq`,
  branches: `SELECT ${TASK_COLUMNS} FROM tasks WHERE branch_of_task_id = $1 ORDER BY created_at, id LIMIT $2`,
  putBundle: `INSERT INTO bundles (hash, agent_id, content, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
  getBundles: `SELECT hash, agent_id, content FROM bundles WHERE hash = $1 ORDER BY agent_id`,
};
const MAX_POSITION = Number.MAX_SAFE_INTEGER;

type Queryable = Pick<pg.PoolClient, 'query'>;

const taskValues = (t: TaskRecord, inheritsFrom: string | null, inherited: number) => {
  const r = taskToRow(t);
  return [
    r.id,
    r.agent_id,
    r.user_id,
    r.origin,
    r.title,
    r.welcome_message,
    r.suggestions,
    r.version_id,
    r.version_tag,
    r.clock,
    r.initial_state,
    r.branch_of_task_id,
    r.branch_of_interaction_id,
    r.created_at,
    inheritsFrom,
    inherited,
  ];
};
const turnValues = (t: NewTurn, seq: number) => {
  const r = turnToRow(t, seq);
  return [
    r.task_id,
    r.seq,
    r.interaction_id,
    r.user_message_id,
    r.user_text,
    r.user_created_at,
    r.reply_text,
    r.reply_suggestions,
    r.reply_created_at,
    r.trace,
    r.state,
    r.bundle_hash,
    r.version_id,
  ];
};

/** Error codes of a connection that failed or broke, rather than of a statement. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
/** SQLSTATEs of a server that is shutting down, starting or full: class 08 plus these. */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);

/** Whether an error means the database cannot be reached now (as opposed to a bad statement). */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.has(code) || code.startsWith('08')))
    return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i.test(
    error.message,
  );
}

const translate = (error: unknown): unknown =>
  isUnreachable(error) && !(error instanceof StoreUnavailableError)
    ? new StoreUnavailableError(error)
    : error;

export class PostgresStore implements Store {
  private constructor(private readonly pool: pg.Pool) {}

  /** Connects and brings the schema up to date (safe when several instances start at once). */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      application_name: 'threadline',
    });
    // An idle connection that breaks (the database restarts) is dropped by the pool; without a
    // listener the error would end the process.
    pool.on('error', () => undefined);
    // A connection that breaks while checked out (between two statements of a transaction) emits
    // an error too; the next statement on it fails and is answered as unavailable.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const store = new PostgresStore(pool);
    try {
      const client = await pool.connect();
      try {
        await migratePostgres(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw translate(error);
    }
    return store;
  }

  private async query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
    on?: Queryable,
  ): Promise<R[]> {
    try {
      return (await (on ?? this.pool).query<R>(text, values)).rows;
    } catch (error) {
      throw translate(error);
    }
  }

  /** Runs `work` in one transaction on one connection; a broken connection is not returned to the pool. */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translate(error);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isUnreachable(error);
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      throw translate(error);
    } finally {
      client.release(broken);
    }
  }

  private async length(
    taskId: string,
    on?: Queryable,
  ): Promise<{ agent_id: string; user_id: string; length: number } | undefined> {
    return (
      await this.query<{ agent_id: string; user_id: string; length: number }>(SQL.length, [taskId], on)
    )[0];
  }

  private async turnRow(taskId: string, interactionId: string, on?: Queryable): Promise<TurnRow | undefined> {
    return (await this.query<TurnRow>(SQL.turnById, [taskId, 0, interactionId], on))[0];
  }

  /** The position of a turn in the thread of `taskId` (its own or inherited), if there is one. */
  private async turnSeq(taskId: string, interactionId: string, on?: Queryable): Promise<number | undefined> {
    const row = (await this.query<{ seq: string | number }>(SQL.seqById, [taskId, 0, interactionId], on))[0];
    return row && Number(row.seq);
  }

  private async initialState(taskId: string, on?: Queryable): Promise<EngineState | undefined> {
    const row = (await this.query<TaskRow>(SQL.getTask, [taskId], on))[0];
    return row && parseStored<EngineState>(row.initial_state, `initial state of task ${taskId}`);
  }

  /** The engine state after the thread's turn at `position` (from 1). */
  private async stateAt(taskId: string, position: number, on?: Queryable): Promise<EngineState | undefined> {
    const row = (await this.query<{ state: string }>(SQL.stateAt, [taskId, position - 1, position], on))[0];
    return row && parseStored<EngineState>(row.state, `state of task ${taskId} at turn ${position}`);
  }

  async createTask(task: TaskRecord): Promise<void> {
    await this.query(SQL.insertTask, taskValues(task, null, 0));
  }

  async createBranch(task: TaskRecord, firstTurn: NewTurn): Promise<void> {
    const from = task.branchOf;
    if (!from) throw new Error(`createBranch: task ${task.id} names no parent`);
    // The parent's turns up to the fork never change, so no lock is needed to read them.
    await this.transaction(async (client) => {
      const forkSeq = await this.turnSeq(from.taskId, from.interactionId, client);
      if (forkSeq === undefined)
        throw new Error(`createBranch: no interaction ${from.interactionId} in task ${from.taskId}`);
      const inherited = forkSeq - 1;
      const owner =
        inherited === 0
          ? undefined
          : (
              await this.query<{ task_id: string }>(
                SQL.ownerAt,
                [from.taskId, inherited - 1, inherited],
                client,
              )
            )[0];
      if (inherited > 0 && !owner)
        throw new Error(`createBranch: task ${from.taskId} has no turn ${inherited}`);
      await this.query(SQL.insertTask, taskValues(task, owner?.task_id ?? null, inherited), client);
      const turn = { ...firstTurn, taskId: task.id };
      await this.query(SQL.insertTurn, turnValues(turn, forkSeq), client);
      await this.indexTurn(client, indexEntryAt(task, turn, forkSeq));
    });
  }

  async getTask(taskId: string): Promise<TaskRecord | undefined> {
    const row = (await this.query<TaskRow>(SQL.getTask, [taskId]))[0];
    return row ? rowToTask(row) : undefined;
  }

  async renameTask(taskId: string, title: string): Promise<boolean> {
    return (await this.query<{ id: string }>(SQL.renameTask, [taskId, title])).length > 0;
  }

  async appendTurn<T extends NewTurn>(
    taskId: string,
    next: (stateBefore: EngineState, turnsBefore: number) => T | Promise<T>,
    known?: ThreadTip,
  ): Promise<T> {
    return this.transaction(async (client) => {
      const locked = (await this.query<{ initial_state: string }>(SQL.lockTask, [taskId], client))[0];
      if (!locked) throw new Error(`appendTurn: no task ${taskId}`);
      const { length, agent_id, user_id } = (await this.length(taskId, client))!;
      // Turns are append-only: the state after turn `length` is the one the caller read there.
      const before =
        known?.turns === length
          ? known.state
          : length > 0
            ? await this.stateAt(taskId, length, client)
            : parseStored<EngineState>(locked.initial_state, `initial state of task ${taskId}`);
      if (before === undefined) throw new Error(`appendTurn: task ${taskId} has no turn ${length}`);
      const turn = { ...(await next(before, length)), taskId };
      await this.query(SQL.insertTurn, turnValues(turn, length + 1), client);
      // The task's place in the thread list and the turn's index entry: one statement.
      await this.indexTurn(client, indexEntryAt({ agentId: agent_id, userId: user_id }, turn, length + 1), {
        touchTask: true,
      });
      return turn;
    });
  }

  async forkPoint(taskId: string, interactionId: string): Promise<ForkPoint | undefined> {
    const seq = await this.turnSeq(taskId, interactionId);
    if (seq === undefined) return undefined;
    const stateBefore = seq === 1 ? await this.initialState(taskId) : await this.stateAt(taskId, seq - 1);
    if (stateBefore === undefined) throw new Error(`forkPoint: task ${taskId} has a gap before ${seq}`);
    return { turnsBefore: seq - 1, stateBefore };
  }

  async listTurns(taskId: string, page?: PageRequest): Promise<TurnRecord[]> {
    const { from, to } = window(page);
    return (await this.query<TurnRow>(SQL.turnsIn, [taskId, from, to])).map(rowToTurn);
  }

  async countTurns(taskId: string): Promise<number> {
    return (await this.length(taskId))?.length ?? 0;
  }

  async getTraceJson(taskId: string, interactionId: string): Promise<TaskTraces<string | null> | undefined> {
    const task = await this.length(taskId);
    if (!task) return undefined;
    return { agentId: task.agent_id, traces: (await this.turnRow(taskId, interactionId))?.trace ?? null };
  }

  async listTraceJson(taskId: string, page: PageRequest): Promise<TracePage | undefined> {
    const { from, to } = window(page);
    const rows = await this.query<{ agent_id: string; length: number; trace: string | null }>(SQL.tracePage, [
      taskId,
      from,
      to,
    ]);
    const head = rows[0];
    if (!head) return undefined;
    const traces = rows.flatMap((r) => (r.trace === null ? [] : [r.trace]));
    return { agentId: head.agent_id, total: head.length, traces };
  }

  async getTurn(taskId: string, interactionId: string): Promise<TurnRecord | undefined> {
    const row = await this.turnRow(taskId, interactionId);
    return row ? rowToTurn(row) : undefined;
  }

  async turnPosition(taskId: string, interactionId: string): Promise<number | undefined> {
    const seq = await this.turnSeq(taskId, interactionId);
    return seq === undefined ? undefined : seq - 1;
  }

  async listTurnConfigs(taskId: string, page?: PageRequest): Promise<TurnConfigRecord[]> {
    const { from, to } = window(page);
    const rows = await this.query<{
      interaction_id: string;
      user_text: string;
      bundle_hash: string | null;
      version_id: string;
    }>(SQL.turnConfigs, [taskId, from, to]);
    return rows.map((r) => ({
      interactionId: r.interaction_id,
      userText: r.user_text,
      bundleHash: r.bundle_hash,
      versionId: r.version_id,
    }));
  }

  async listBranches(taskId: string, limit: number): Promise<TaskRecord[]> {
    return (await this.query<TaskRow>(SQL.branches, [taskId, limit])).map(rowToTask);
  }

  async putBundle(bundle: StoredBundle, createdAt: string): Promise<void> {
    await this.query(SQL.putBundle, [bundle.hash, bundle.agentId, bundle.content, createdAt]);
  }

  async getBundles(hash: string): Promise<StoredBundle[]> {
    const rows = await this.query<{ hash: string; agent_id: string; content: string }>(SQL.getBundles, [
      hash,
    ]);
    return rows.map((r) => ({ hash: r.hash, agentId: r.agent_id, content: r.content }));
  }

  async latestState(taskId: string): Promise<EngineState | undefined> {
    return (await this.threadTip(taskId))?.state;
  }

  async threadTip(taskId: string): Promise<ThreadTip | undefined> {
    // Turns are append-only: the state at the length read is that turn's, whatever came after.
    const task = await this.length(taskId);
    if (!task) return undefined;
    const state = task.length > 0 ? await this.stateAt(taskId, task.length) : await this.initialState(taskId);
    if (state === undefined) throw new Error(`threadTip: task ${taskId} has no turn ${task.length}`);
    return { turns: task.length, state };
  }

  private async indexTurn(
    client: pg.PoolClient,
    entry: TurnIndexEntry,
    options?: { touchTask: boolean },
  ): Promise<void> {
    try {
      await addToPostgresTurnIndex(client, entry, options);
    } catch (error) {
      throw translate(error);
    }
  }

  async searchTurns(
    query: TurnQuery,
    allowedAgents: readonly string[] | null,
    before: number | null,
    limit: number,
  ): Promise<TurnHits> {
    return searchPostgresTurns((t, v, on) => this.query(t, v, on), query, allowedAgents, before, limit);
  }

  async turnFacets(query: TurnQuery, allowedAgents: readonly string[] | null): Promise<TurnFacetCounts> {
    return postgresTurnFacets(
      (work) => this.transaction(work),
      (t, v, on) => this.query(t, v, on),
      query,
      allowedAgents,
    );
  }

  async countMatchingTurns(query: TurnQuery, allowedAgents: readonly string[] | null): Promise<number> {
    return countPostgresTurns((t, v, on) => this.query(t, v, on), query, allowedAgents);
  }

  async listTasks(
    query: TaskListQuery,
    allowedAgents: readonly string[] | null,
    before: number | null,
    limit: number,
  ): Promise<TaskListPage> {
    const all = (w: Where) => this.query<Record<string, unknown>>(numbered(w.sql), w.args);
    return runTaskList(all, 'postgres', query, allowedAgents, before, limit);
  }

  async agentsRevision(): Promise<number> {
    const rows = await this.query<{ revision: number }>(
      'SELECT revision FROM agent_revision WHERE id = 1',
      [],
    );
    return Number(rows[0]?.revision ?? 0);
  }

  async listStoredAgents(): Promise<StoredAgent[]> {
    return this.transaction(async (client) =>
      rowsToAgents(
        await this.query<AgentRow>(
          'SELECT id, active_version, created_at FROM agents ORDER BY id',
          [],
          client,
        ),
        await this.query<AgentVersionRow>(
          'SELECT agent_id, id, tag, note, bundle, created_at FROM agent_versions ORDER BY agent_id, seq',
          [],
          client,
        ),
      ),
    );
  }

  /**
   * Runs an agent write and bumps the revision, in one transaction. The revision row is locked
   * first, so agent writes of every instance run one at a time (they are rare).
   */
  private agentWrite<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(async (client) => {
      await this.query('UPDATE agent_revision SET revision = revision + 1 WHERE id = 1', [], client);
      return work(client);
    });
  }

  private async insertVersion(agentId: string, version: StoredAgentVersion, client: pg.PoolClient) {
    await this.query(
      `INSERT INTO agent_versions (agent_id, id, seq, tag, note, bundle, created_at)
       VALUES ($1, $2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM agent_versions WHERE agent_id = $1), $3, $4, $5, $6)`,
      [agentId, version.id, version.tag, version.note, version.bundle, version.createdAt],
      client,
    );
  }

  async createAgent(
    agent: { id: string; createdAt: string },
    first: StoredAgentVersion,
    draft: AgentDraft,
  ): Promise<boolean> {
    return this.agentWrite(async (client) => {
      const inserted = await this.query(
        `INSERT INTO agents (id, active_version, draft, draft_updated_at, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [agent.id, first.id, draft.content, draft.updatedAt, agent.createdAt],
        client,
      );
      if (inserted.length === 0) return false;
      await this.insertVersion(agent.id, first, client);
      return true;
    });
  }

  async getAgentDraft(agentId: string): Promise<AgentDraft | undefined> {
    const rows = await this.query<{ draft: string; draft_updated_at: string }>(
      'SELECT draft, draft_updated_at FROM agents WHERE id = $1',
      [agentId],
    );
    return rows[0] && { content: rows[0].draft, updatedAt: rows[0].draft_updated_at };
  }

  async putAgentDraft(agentId: string, draft: AgentDraft): Promise<boolean> {
    return this.agentWrite(
      async (client) =>
        (
          await this.query(
            'UPDATE agents SET draft = $1, draft_updated_at = $2 WHERE id = $3 RETURNING id',
            [draft.content, draft.updatedAt, agentId],
            client,
          )
        ).length > 0,
    );
  }

  async addAgentVersion(
    agentId: string,
    version: StoredAgentVersion,
  ): Promise<'added' | 'no-agent' | 'taken'> {
    return this.agentWrite(async (client) => {
      if ((await this.query('SELECT 1 FROM agents WHERE id = $1', [agentId], client)).length === 0)
        return 'no-agent';
      const taken = await this.query(
        'SELECT 1 FROM agent_versions WHERE agent_id = $1 AND (id = $2 OR tag = $3)',
        [agentId, version.id, version.tag],
        client,
      );
      if (taken.length > 0) return 'taken';
      await this.insertVersion(agentId, version, client);
      return 'added';
    });
  }

  async setActiveAgentVersion(agentId: string, versionId: string): Promise<boolean> {
    return this.agentWrite(
      async (client) =>
        (
          await this.query(
            `UPDATE agents SET active_version = $2 WHERE id = $1
             AND EXISTS (SELECT 1 FROM agent_versions WHERE agent_id = $1 AND id = $2) RETURNING id`,
            [agentId, versionId],
            client,
          )
        ).length > 0,
    );
  }

  async deleteAgent(agentId: string): Promise<'deleted' | 'no-agent' | 'has-tasks'> {
    return this.agentWrite(async (client) => {
      if ((await this.query('SELECT 1 FROM agents WHERE id = $1', [agentId], client)).length === 0)
        return 'no-agent';
      if ((await this.query('SELECT 1 FROM tasks WHERE agent_id = $1 LIMIT 1', [agentId], client)).length > 0)
        return 'has-tasks';
      await this.query('DELETE FROM agent_versions WHERE agent_id = $1', [agentId], client);
      await this.query('DELETE FROM agents WHERE id = $1', [agentId], client);
      return 'deleted';
    });
  }

  async health(): Promise<StoreHealth> {
    try {
      await this.pool.query('SELECT 1');
      return { store: 'postgres', reachable: true };
    } catch {
      return { store: 'postgres', reachable: false };
    }
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}

/** A page as a window of thread positions (`from < seq <= to`); the whole thread when none. */
function window(page: PageRequest | undefined): { from: number; to: number } {
  return page ? { from: page.offset, to: page.offset + page.limit } : { from: 0, to: MAX_POSITION };
}
