/**
 * The SQLite store (better-sqlite3). Durability: WAL journal with `synchronous = NORMAL`. In WAL
 * mode every commit is written to the WAL file before the call returns, so a transaction that
 * committed (and was therefore acknowledged to the client) survives the process being killed,
 * `kill -9` included: the bytes are in the operating system's page cache and reach the disk
 * without the process. Only an operating-system crash or power loss may drop the last commits,
 * which `synchronous = FULL` (an fsync per commit) would prevent at a large cost in throughput;
 * pass `durability: 'power-loss'` to choose it.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { rowsToAgents, type AgentRow, type AgentVersionRow } from './agent-rows';
import { migrate } from './migrations';
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
import { DATABASE_FILE, openDatabase, type OpenDatabase } from './open-database';
import { NEXT_ACTIVITY, placeholders, SET_TIP, TASK_LENGTH, type TaskLength } from './sqlite-send-writes';
import { openSendWriter, type SendWriter } from './sqlite-send-writer';
import { SqliteTurnIndex } from './sqlite-turn-index';
import { indexEntryAt } from './index-entry-at';
import { runTaskList, type TaskListPage, type TaskListQuery } from './task-list';
import type { TurnFacetCounts, TurnHits, TurnQuery, Where } from './turn-search';
import type {
  AgentDraft,
  StoredAgent,
  StoredAgentVersion,
  ForkPoint,
  ThreadTip,
  PageRequest,
  Store,
  StoreHealth,
  StoredBundle,
  TaskRecord,
  NewTurn,
  TaskTraces,
  TracePage,
  TurnConfigRecord,
  TurnRecord,
} from './store';
import type { EngineState } from '../../engine/contract';
import { parseStored } from './damaged-values';

export interface SqliteStoreOptions {
  /** The data folder; the database is `threadline.db` inside it. `:memory:` for a throwaway store. */
  dataDir: string;
  durability?: 'process-crash' | 'power-loss';
}

/**
 * The segments of task `@task`'s thread: each task of its inheritance chain with the positions
 * (`seq`) it contributes, `after_seq < seq <= upto_seq`. The task itself contributes its own turns
 * after the ones it inherits; each ancestor, its own turns up to where its heir's inheritance ends.
 * A branch inherits from the task that ran its last inherited turn, so every task of a chain
 * contributes a turn (branches migrated from the first schema aside) and a chain is never longer
 * than its thread, and only as long as the reruns of reruns that made it. The walk stops once the
 * segments reach back to `@from`. A read joins these rows to `turns` through its primary key or
 * its interaction index (CROSS JOIN keeps `chain` the outer loop).
 */
const CHAIN = `WITH RECURSIVE chain(task_id, parent_id, after_seq, upto_seq) AS (
    SELECT id, inherits_from, inherited_turns, 9223372036854775807 FROM tasks WHERE id = @task
    UNION ALL
    SELECT tasks.id, tasks.inherits_from, tasks.inherited_turns, MIN(chain.upto_seq, chain.after_seq)
    FROM chain CROSS JOIN tasks ON tasks.id = chain.parent_id
    WHERE MIN(chain.upto_seq, chain.after_seq) > @from
  )`;
/** The turns of the chain's segments in the window of positions `@from < seq <= @to`. */
const CHAIN_TURNS = `chain CROSS JOIN turns ON turns.task_id = chain.task_id
    AND turns.seq > MAX(chain.after_seq, @from) AND turns.seq <= MIN(chain.upto_seq, @to)`;
const ALL = { from: 0, to: Number.MAX_SAFE_INTEGER };

/** Times `appendTurn` computes a turn again when the thread moved on meanwhile, before it gives up. */
const APPEND_ATTEMPTS = 10;
export class SqliteStore implements Store {
  private readonly opened: OpenDatabase;
  private readonly db: Database.Database;
  private readonly statements;
  private readonly turnIndex: SqliteTurnIndex;
  private readonly sendWriter: SendWriter;

  /** Throws a `StorageStartError` (one readable line) when the data folder cannot be used; see open-database.ts. */
  constructor(options: SqliteStoreOptions) {
    const synchronous = options.durability === 'power-loss' ? 'FULL' : 'NORMAL';
    this.opened = openDatabase(options.dataDir, synchronous);
    this.db = this.opened.db;
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db);
    this.turnIndex = new SqliteTurnIndex(this.db);
    this.turnIndex.backfill();
    this.sendWriter = openSendWriter(
      this.db,
      this.turnIndex,
      options.dataDir === ':memory:'
        ? undefined
        : { file: join(options.dataDir, DATABASE_FILE), synchronous },
    );
    this.statements = {
      insertTask: this.db.prepare(
        `INSERT INTO tasks (${TASK_COLUMNS}, inherits_from, inherited_turns, activity) VALUES (${placeholders(TASK_COLUMNS)}, @inherits_from, @inherited_turns, ${NEXT_ACTIVITY})`,
      ),
      getTask: this.db.prepare(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ?`),
      renameTask: this.db.prepare(`UPDATE tasks SET title = ? WHERE id = ?`),
      insertTurn: this.db.prepare(
        `INSERT INTO turns (${TURN_COLUMNS}) VALUES (${placeholders(TURN_COLUMNS)})`,
      ),
      taskLength: this.db.prepare(TASK_LENGTH),
      setTip: this.db.prepare(SET_TIP),
      turnsIn: this.db.prepare(
        `${CHAIN} SELECT ${prefixed(TURN_COLUMNS, 'turns')} FROM ${CHAIN_TURNS} ORDER BY turns.seq`,
      ),
      tracesIn: this.db.prepare(`${CHAIN} SELECT turns.trace FROM ${CHAIN_TURNS} ORDER BY turns.seq`),
      turnById: this.db.prepare(
        `${CHAIN} SELECT ${prefixed(TURN_COLUMNS, 'turns')} FROM chain CROSS JOIN turns ON turns.task_id = chain.task_id
           AND turns.interaction_id = @interaction AND turns.seq > chain.after_seq AND turns.seq <= chain.upto_seq`,
      ),
      // The position alone: the columns before the trace, never its overflow pages.
      seqById: this.db
        .prepare(
          `${CHAIN} SELECT turns.seq FROM chain CROSS JOIN turns ON turns.task_id = chain.task_id
           AND turns.interaction_id = @interaction AND turns.seq > chain.after_seq AND turns.seq <= chain.upto_seq`,
        )
        .pluck(),
      ownerAt: this.db.prepare(`${CHAIN} SELECT turns.task_id FROM ${CHAIN_TURNS}`),
      stateAt: this.db.prepare(`${CHAIN} SELECT turns.state FROM ${CHAIN_TURNS}`),
      turnConfigs: this.db.prepare(
        `${CHAIN} SELECT turns.interaction_id, turns.user_text, turns.bundle_hash, turns.version_id FROM ${CHAIN_TURNS} ORDER BY turns.seq`,
      ),
      branches: this.db.prepare(
        `SELECT ${TASK_COLUMNS} FROM tasks WHERE branch_of_task_id = ? ORDER BY created_at, id LIMIT ?`,
      ),
      getBundles: this.db.prepare(
        'SELECT hash, agent_id, content FROM bundles WHERE hash = ? ORDER BY agent_id',
      ),
    };
  }

  /** The task's agent and thread length, or undefined when no such task. */
  private length(taskId: string): TaskLength | undefined {
    return this.statements.taskLength.get(taskId) as TaskLength | undefined;
  }

  /** The position of a turn in the thread of `taskId` (its own or inherited), if there is one. */
  private turnSeq(taskId: string, interactionId: string): number | undefined {
    return this.statements.seqById.get({ task: taskId, interaction: interactionId, from: 0 }) as
      number | undefined;
  }

  private turnRow(taskId: string, interactionId: string): TurnRow | undefined {
    return this.statements.turnById.get({ task: taskId, interaction: interactionId, from: 0 }) as
      TurnRow | undefined;
  }

  private initialState(taskId: string): EngineState | undefined {
    const row = this.statements.getTask.get(taskId) as TaskRow | undefined;
    return row && parseStored<EngineState>(row.initial_state, `initial state of task ${taskId}`);
  }

  /** The engine state after the thread's turn at `position` (from 1). */
  private stateAt(taskId: string, position: number): EngineState | undefined {
    const row = this.statements.stateAt.get({ task: taskId, from: position - 1, to: position }) as
      { state: string } | undefined;
    return row && parseStored<EngineState>(row.state, `state of task ${taskId} at turn ${position}`);
  }

  async createTask(task: TaskRecord): Promise<void> {
    this.statements.insertTask.run({ ...taskToRow(task), inherits_from: null, inherited_turns: 0 });
  }

  async createBranch(task: TaskRecord, firstTurn: NewTurn): Promise<void> {
    const from = task.branchOf;
    if (!from) throw new Error(`createBranch: task ${task.id} names no parent`);
    // IMMEDIATE: the write lock is taken before the reads, so the writer thread committing a turn
    // meanwhile makes this wait (busy_timeout) rather than fail when it starts writing.
    this.db
      .transaction(() => {
        const forkSeq = this.turnSeq(from.taskId, from.interactionId);
        if (forkSeq === undefined)
          throw new Error(`createBranch: no interaction ${from.interactionId} in task ${from.taskId}`);
        const inherited = forkSeq - 1;
        // Inherit through the task that ran the last inherited turn: the tasks between it and the
        // parent contribute nothing before the fork.
        const owner =
          inherited === 0
            ? undefined
            : (this.statements.ownerAt.get({ task: from.taskId, from: inherited - 1, to: inherited }) as
                { task_id: string } | undefined);
        if (inherited > 0 && !owner)
          throw new Error(`createBranch: task ${from.taskId} has no turn ${inherited}`);
        this.statements.insertTask.run({
          ...taskToRow(task),
          inherits_from: owner?.task_id ?? null,
          inherited_turns: inherited,
        });
        const turn = { ...firstTurn, taskId: task.id };
        const row = turnToRow(turn, forkSeq);
        this.statements.insertTurn.run(row);
        this.statements.setTip.run({ task: task.id, seq: forkSeq, state: row.state });
        this.turnIndex.add(indexEntryAt(task, turn, forkSeq));
      })
      .immediate();
  }

  async getTask(taskId: string): Promise<TaskRecord | undefined> {
    const row = this.statements.getTask.get(taskId) as TaskRow | undefined;
    return row ? rowToTask(row) : undefined;
  }

  async renameTask(taskId: string, title: string): Promise<boolean> {
    return this.statements.renameTask.run(title, taskId).changes > 0;
  }

  async appendTurn<T extends NewTurn>(
    taskId: string,
    next: (stateBefore: EngineState, turnsBefore: number) => T | Promise<T>,
    known?: ThreadTip,
  ): Promise<T> {
    // `next` may take a while (a turn in the worker pool): it runs outside the transaction, and its
    // turn is stored only if the thread has not moved meanwhile (else `next` runs again on the
    // new end), by the writer thread (see `sqlite-send-writer.ts`). This process is the
    // database's only writer, and its sends to one task wait for each other, so in practice the
    // first try is stored.
    for (let attempt = 1; ; attempt++) {
      // The caller's tip is tried first: the writer thread stores the turn only if it still is the tip.
      const tip = attempt === 1 && known ? known : await this.threadTip(taskId);
      if (!tip) throw new Error(`appendTurn: no task ${taskId}`);
      const computed = await next(tip.state, tip.turns);
      if (await this.sendWriter.appendAt(taskId, tip.turns, computed)) return { ...computed, taskId };
      if (attempt >= APPEND_ATTEMPTS)
        throw new Error(
          `appendTurn: the thread of task ${taskId} moved on ${attempt} times while its turn was computed`,
        );
    }
  }

  async forkPoint(taskId: string, interactionId: string): Promise<ForkPoint | undefined> {
    const seq = this.turnSeq(taskId, interactionId);
    if (seq === undefined) return undefined;
    const stateBefore = seq === 1 ? this.initialState(taskId) : this.stateAt(taskId, seq - 1);
    if (stateBefore === undefined) throw new Error(`forkPoint: task ${taskId} has a gap before ${seq}`);
    return { turnsBefore: seq - 1, stateBefore };
  }

  async listTurns(taskId: string, page?: PageRequest): Promise<TurnRecord[]> {
    const rows = this.statements.turnsIn.all({ task: taskId, ...window(page) }) as TurnRow[];
    return rows.map(rowToTurn);
  }

  async countTurns(taskId: string): Promise<number> {
    return this.length(taskId)?.length ?? 0;
  }

  async getTraceJson(taskId: string, interactionId: string): Promise<TaskTraces<string | null> | undefined> {
    const task = this.length(taskId);
    if (!task) return undefined;
    return { agentId: task.agent_id, traces: this.turnRow(taskId, interactionId)?.trace ?? null };
  }

  async listTraceJson(taskId: string, page: PageRequest): Promise<TracePage | undefined> {
    // One transaction: the length and the page are read from the same snapshot.
    return this.db.transaction(() => {
      const task = this.length(taskId);
      if (!task) return undefined;
      const rows = this.statements.tracesIn.all({ task: taskId, ...window(page) }) as { trace: string }[];
      return { agentId: task.agent_id, total: task.length, traces: rows.map((r) => r.trace) };
    })();
  }

  async getTurn(taskId: string, interactionId: string): Promise<TurnRecord | undefined> {
    const row = this.turnRow(taskId, interactionId);
    return row ? rowToTurn(row) : undefined;
  }

  async turnPosition(taskId: string, interactionId: string): Promise<number | undefined> {
    const seq = this.turnSeq(taskId, interactionId);
    return seq === undefined ? undefined : seq - 1;
  }

  async listTurnConfigs(taskId: string, page?: PageRequest): Promise<TurnConfigRecord[]> {
    const rows = this.statements.turnConfigs.all({ task: taskId, ...window(page) }) as {
      interaction_id: string;
      user_text: string;
      bundle_hash: string | null;
      version_id: string;
    }[];
    return rows.map((r) => ({
      interactionId: r.interaction_id,
      userText: r.user_text,
      bundleHash: r.bundle_hash,
      versionId: r.version_id,
    }));
  }

  async listBranches(taskId: string, limit: number): Promise<TaskRecord[]> {
    return (this.statements.branches.all(taskId, limit) as TaskRow[]).map(rowToTask);
  }

  async putBundle(bundle: StoredBundle, createdAt: string): Promise<void> {
    await this.sendWriter.putBundle(bundle, createdAt);
  }

  async getBundles(hash: string): Promise<StoredBundle[]> {
    const rows = this.statements.getBundles.all(hash) as {
      hash: string;
      agent_id: string;
      content: string;
    }[];
    return rows.map((r) => ({ hash: r.hash, agentId: r.agent_id, content: r.content }));
  }

  async latestState(taskId: string): Promise<EngineState | undefined> {
    return (await this.threadTip(taskId))?.state;
  }

  async threadTip(taskId: string): Promise<ThreadTip | undefined> {
    const task = this.length(taskId);
    if (!task) return undefined;
    // The tip kept with the task when its last own turn ends the thread; else read from the turns.
    const state =
      task.tip_seq === task.length && task.tip_state !== null
        ? parseStored<EngineState>(task.tip_state, `state of task ${taskId} at turn ${task.length}`)
        : task.length > 0
          ? this.stateAt(taskId, task.length)
          : this.initialState(taskId);
    if (state === undefined) throw new Error(`threadTip: task ${taskId} has no turn ${task.length}`);
    return { turns: task.length, state };
  }

  async searchTurns(
    query: TurnQuery,
    allowedAgents: readonly string[] | null,
    before: number | null,
    limit: number,
  ): Promise<TurnHits> {
    await this.sendWriter.catchUpIndex();
    return this.turnIndex.search(query, allowedAgents, before, limit);
  }

  async turnFacets(query: TurnQuery, allowedAgents: readonly string[] | null): Promise<TurnFacetCounts> {
    await this.sendWriter.catchUpIndex();
    return this.turnIndex.facets(query, allowedAgents);
  }

  async countMatchingTurns(query: TurnQuery, allowedAgents: readonly string[] | null): Promise<number> {
    await this.sendWriter.catchUpIndex();
    return this.turnIndex.count(query, allowedAgents);
  }

  async listTasks(
    query: TaskListQuery,
    allowedAgents: readonly string[] | null,
    before: number | null,
    limit: number,
  ): Promise<TaskListPage> {
    const all = async (w: Where) => this.db.prepare(w.sql).all(...w.args) as Record<string, unknown>[];
    return runTaskList(all, 'sqlite', query, allowedAgents, before, limit);
  }

  async agentsRevision(): Promise<number> {
    return (this.db.prepare('SELECT revision FROM agent_revision WHERE id = 1').get() as { revision: number })
      .revision;
  }

  async listStoredAgents(): Promise<StoredAgent[]> {
    return this.db.transaction(() =>
      rowsToAgents(
        this.db.prepare('SELECT id, active_version, created_at FROM agents ORDER BY id').all() as AgentRow[],
        this.db
          .prepare(
            'SELECT agent_id, id, tag, note, bundle, created_at FROM agent_versions ORDER BY agent_id, seq',
          )
          .all() as AgentVersionRow[],
      ),
    )();
  }

  /** Runs an agent write and bumps the revision, in one transaction. */
  private agentWrite<T>(work: () => T): T {
    return this.db
      .transaction(() => {
        const result = work();
        this.db.prepare('UPDATE agent_revision SET revision = revision + 1 WHERE id = 1').run();
        return result;
      })
      .immediate();
  }

  private insertVersion(agentId: string, version: StoredAgentVersion): void {
    this.db
      .prepare(
        `INSERT INTO agent_versions (agent_id, id, seq, tag, note, bundle, created_at)
         VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM agent_versions WHERE agent_id = ?), ?, ?, ?, ?)`,
      )
      .run(agentId, version.id, agentId, version.tag, version.note, version.bundle, version.createdAt);
  }

  async createAgent(
    agent: { id: string; createdAt: string },
    first: StoredAgentVersion,
    draft: AgentDraft,
  ): Promise<boolean> {
    return this.agentWrite(() => {
      const inserted = this.db
        .prepare(
          'INSERT OR IGNORE INTO agents (id, active_version, draft, draft_updated_at, created_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(agent.id, first.id, draft.content, draft.updatedAt, agent.createdAt);
      if (inserted.changes === 0) return false;
      this.insertVersion(agent.id, first);
      return true;
    });
  }

  async getAgentDraft(agentId: string): Promise<AgentDraft | undefined> {
    const row = this.db.prepare('SELECT draft, draft_updated_at FROM agents WHERE id = ?').get(agentId) as
      { draft: string; draft_updated_at: string } | undefined;
    return row && { content: row.draft, updatedAt: row.draft_updated_at };
  }

  async putAgentDraft(agentId: string, draft: AgentDraft): Promise<boolean> {
    return this.agentWrite(
      () =>
        this.db
          .prepare('UPDATE agents SET draft = ?, draft_updated_at = ? WHERE id = ?')
          .run(draft.content, draft.updatedAt, agentId).changes > 0,
    );
  }

  async addAgentVersion(
    agentId: string,
    version: StoredAgentVersion,
  ): Promise<'added' | 'no-agent' | 'taken'> {
    return this.agentWrite(() => {
      if (!this.db.prepare('SELECT 1 FROM agents WHERE id = ?').get(agentId)) return 'no-agent';
      const taken = this.db
        .prepare('SELECT 1 FROM agent_versions WHERE agent_id = ? AND (id = ? OR tag = ?)')
        .get(agentId, version.id, version.tag);
      if (taken) return 'taken';
      this.insertVersion(agentId, version);
      return 'added';
    });
  }

  async setActiveAgentVersion(agentId: string, versionId: string): Promise<boolean> {
    return this.agentWrite(
      () =>
        this.db
          .prepare(
            `UPDATE agents SET active_version = ? WHERE id = ?
             AND EXISTS (SELECT 1 FROM agent_versions WHERE agent_id = ? AND id = ?)`,
          )
          .run(versionId, agentId, agentId, versionId).changes > 0,
    );
  }

  async deleteAgent(agentId: string): Promise<'deleted' | 'no-agent' | 'has-tasks'> {
    return this.agentWrite(() => {
      if (!this.db.prepare('SELECT 1 FROM agents WHERE id = ?').get(agentId)) return 'no-agent';
      if (this.db.prepare('SELECT 1 FROM tasks WHERE agent_id = ? LIMIT 1').get(agentId)) return 'has-tasks';
      this.db.prepare('DELETE FROM agent_versions WHERE agent_id = ?').run(agentId);
      this.db.prepare('DELETE FROM agents WHERE id = ?').run(agentId);
      return 'deleted';
    });
  }

  async health(): Promise<StoreHealth> {
    return { store: 'sqlite', reachable: this.db.open };
  }

  warmUp(): void {
    this.sendWriter.start();
  }

  async close(): Promise<void> {
    await this.sendWriter.close();
    this.opened.close();
  }
}

/** A page as a window of thread positions (`from < seq <= to`); the whole thread when none. */
function window(page: PageRequest | undefined): { from: number; to: number } {
  return page ? { from: page.offset, to: page.offset + page.limit } : ALL;
}
