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
import { migrate } from './migrations';
import { openDatabase, type OpenDatabase } from './open-database';
import type { PageRequest, Store, TaskRecord, TaskTraces, TurnRecord } from './store';
import type { EngineState } from '../engine/contract';
import type { Trace } from '../../src/contract/trace';

export interface SqliteStoreOptions {
  /** The data folder; the database is `threadline.db` inside it. `:memory:` for a throwaway store. */
  dataDir: string;
  durability?: 'process-crash' | 'power-loss';
}

interface TaskRow {
  id: string;
  agent_id: string;
  user_id: string;
  origin: string;
  title: string;
  welcome_message: string | null;
  suggestions: string;
  version_id: string;
  version_tag: string | null;
  clock: string;
  initial_state: string;
  branch_of_task_id: string | null;
  branch_of_interaction_id: string | null;
  created_at: string;
}

interface TurnRow {
  task_id: string;
  seq: number;
  interaction_id: string;
  user_message_id: string;
  user_text: string;
  user_created_at: string;
  reply_text: string;
  reply_suggestions: string;
  reply_created_at: string;
  trace: string;
  state: string;
  bundle_hash: string | null;
  version_id: string;
}

function taskToRow(t: TaskRecord): TaskRow {
  return {
    id: t.id,
    agent_id: t.agentId,
    user_id: t.userId,
    origin: t.origin,
    title: t.title,
    welcome_message: t.welcomeMessage,
    suggestions: JSON.stringify(t.suggestions),
    version_id: t.versionId,
    version_tag: t.versionTag,
    clock: t.clock,
    initial_state: JSON.stringify(t.initialState),
    branch_of_task_id: t.branchOf?.taskId ?? null,
    branch_of_interaction_id: t.branchOf?.interactionId ?? null,
    created_at: t.createdAt,
  };
}

function rowToTask(r: TaskRow): TaskRecord {
  return {
    id: r.id,
    agentId: r.agent_id,
    userId: r.user_id,
    origin: r.origin,
    title: r.title,
    welcomeMessage: r.welcome_message,
    suggestions: JSON.parse(r.suggestions) as string[],
    versionId: r.version_id,
    versionTag: r.version_tag,
    clock: r.clock,
    initialState: JSON.parse(r.initial_state) as EngineState,
    branchOf:
      r.branch_of_task_id && r.branch_of_interaction_id
        ? { taskId: r.branch_of_task_id, interactionId: r.branch_of_interaction_id }
        : null,
    createdAt: r.created_at,
  };
}

function turnToRow(t: TurnRecord, seq: number): TurnRow {
  return {
    task_id: t.taskId,
    seq,
    interaction_id: t.interactionId,
    user_message_id: t.userMessage.id,
    user_text: t.userMessage.text,
    user_created_at: t.userMessage.createdAt,
    reply_text: t.reply.text,
    reply_suggestions: JSON.stringify(t.reply.suggestions),
    reply_created_at: t.reply.createdAt,
    trace: JSON.stringify(t.trace),
    state: JSON.stringify(t.state),
    bundle_hash: t.bundleHash,
    version_id: t.versionId,
  };
}

function rowToTurn(r: TurnRow): TurnRecord {
  return {
    taskId: r.task_id,
    interactionId: r.interaction_id,
    userMessage: { id: r.user_message_id, text: r.user_text, createdAt: r.user_created_at },
    reply: {
      text: r.reply_text,
      suggestions: JSON.parse(r.reply_suggestions) as string[],
      createdAt: r.reply_created_at,
    },
    trace: JSON.parse(r.trace) as TurnRecord['trace'],
    state: JSON.parse(r.state) as EngineState,
    bundleHash: r.bundle_hash,
    versionId: r.version_id,
  };
}

const TASK_COLUMNS =
  'id, agent_id, user_id, origin, title, welcome_message, suggestions, version_id, version_tag, clock, initial_state, branch_of_task_id, branch_of_interaction_id, created_at';
const TURN_COLUMNS =
  'task_id, seq, interaction_id, user_message_id, user_text, user_created_at, reply_text, reply_suggestions, reply_created_at, trace, state, bundle_hash, version_id';
const placeholders = (columns: string) =>
  columns
    .split(', ')
    .map((c) => `@${c}`)
    .join(', ');

export class SqliteStore implements Store {
  private readonly opened: OpenDatabase;
  private readonly db: Database.Database;
  private readonly statements;

  /** Throws a `StorageStartError` (one readable line) when the data folder cannot be used; see open-database.ts. */
  constructor(options: SqliteStoreOptions) {
    this.opened = openDatabase(options.dataDir, options.durability === 'power-loss' ? 'FULL' : 'NORMAL');
    this.db = this.opened.db;
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db);
    this.statements = {
      insertTask: this.db.prepare(
        `INSERT INTO tasks (${TASK_COLUMNS}) VALUES (${placeholders(TASK_COLUMNS)})`,
      ),
      getTask: this.db.prepare(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ?`),
      insertTurn: this.db.prepare(
        `INSERT INTO turns (${TURN_COLUMNS}) VALUES (${placeholders(TURN_COLUMNS)})`,
      ),
      nextSeq: this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM turns WHERE task_id = ?'),
      listTurns: this.db.prepare(`SELECT ${TURN_COLUMNS} FROM turns WHERE task_id = ? ORDER BY seq`),
      pageTurns: this.db.prepare(
        `SELECT ${TURN_COLUMNS} FROM turns WHERE task_id = ? ORDER BY seq LIMIT ? OFFSET ?`,
      ),
      listTraces: this.db.prepare('SELECT trace FROM turns WHERE task_id = ? ORDER BY seq'),
      pageTraces: this.db.prepare('SELECT trace FROM turns WHERE task_id = ? ORDER BY seq LIMIT ? OFFSET ?'),
      countTurns: this.db.prepare('SELECT COUNT(*) AS n FROM turns WHERE task_id = ?'),
      getTurn: this.db.prepare(`SELECT ${TURN_COLUMNS} FROM turns WHERE task_id = ? AND interaction_id = ?`),
      lastState: this.db.prepare('SELECT state FROM turns WHERE task_id = ? ORDER BY seq DESC LIMIT 1'),
      // A task row with its turns' traces (none when it has no turns): one read for the access check and the answer.
      taskTrace: this.db.prepare(
        'SELECT tasks.agent_id, turns.trace FROM tasks LEFT JOIN turns ON turns.task_id = tasks.id AND turns.interaction_id = ? WHERE tasks.id = ?',
      ),
      taskTraces: this.db.prepare(
        'SELECT tasks.agent_id, turns.trace FROM tasks LEFT JOIN turns ON turns.task_id = tasks.id WHERE tasks.id = ? ORDER BY turns.seq',
      ),
      taskAgent: this.db.prepare('SELECT agent_id FROM tasks WHERE id = ?'),
    };
  }

  private appendTurnSync(turn: TurnRecord): void {
    const { next } = this.statements.nextSeq.get(turn.taskId) as { next: number };
    this.statements.insertTurn.run(turnToRow(turn, next));
  }

  async createTask(task: TaskRecord): Promise<void> {
    this.statements.insertTask.run(taskToRow(task));
  }

  async createBranch(task: TaskRecord, history: TurnRecord[]): Promise<void> {
    this.db.transaction(() => {
      this.statements.insertTask.run(taskToRow(task));
      for (const turn of history) this.appendTurnSync({ ...turn, taskId: task.id });
    })();
  }

  async getTask(taskId: string): Promise<TaskRecord | undefined> {
    const row = this.statements.getTask.get(taskId) as TaskRow | undefined;
    return row ? rowToTask(row) : undefined;
  }

  async appendTurn(turn: TurnRecord): Promise<void> {
    this.db.transaction(() => this.appendTurnSync(turn))();
  }

  async listTurns(taskId: string, page?: PageRequest): Promise<TurnRecord[]> {
    const rows = page
      ? this.statements.pageTurns.all(taskId, page.limit, page.offset)
      : this.statements.listTurns.all(taskId);
    return (rows as TurnRow[]).map(rowToTurn);
  }

  async listTraces(taskId: string, page?: PageRequest): Promise<Trace[]> {
    const rows = page
      ? this.statements.pageTraces.all(taskId, page.limit, page.offset)
      : this.statements.listTraces.all(taskId);
    return (rows as { trace: string }[]).map((r) => JSON.parse(r.trace) as Trace);
  }

  async countTurns(taskId: string): Promise<number> {
    return (this.statements.countTurns.get(taskId) as { n: number }).n;
  }

  async getTraceJson(taskId: string, interactionId: string): Promise<TaskTraces<string | null> | undefined> {
    const row = this.statements.taskTrace.get(interactionId, taskId) as
      { agent_id: string; trace: string | null } | undefined;
    return row && { agentId: row.agent_id, traces: row.trace };
  }

  async listTraceJson(taskId: string, page?: PageRequest): Promise<TaskTraces<string[]> | undefined> {
    if (page) {
      // LIMIT and OFFSET apply to the joined rows, so a page reads the task on its own.
      const task = this.statements.taskAgent.get(taskId) as { agent_id: string } | undefined;
      if (!task) return undefined;
      const rows = this.statements.pageTraces.all(taskId, page.limit, page.offset) as { trace: string }[];
      return { agentId: task.agent_id, traces: rows.map((r) => r.trace) };
    }
    const rows = this.statements.taskTraces.all(taskId) as { agent_id: string; trace: string | null }[];
    if (rows.length === 0) return undefined;
    // A task without turns is one row whose trace is null.
    return { agentId: rows[0]!.agent_id, traces: rows.flatMap((r) => (r.trace === null ? [] : [r.trace])) };
  }

  async getTurn(taskId: string, interactionId: string): Promise<TurnRecord | undefined> {
    const row = this.statements.getTurn.get(taskId, interactionId) as TurnRow | undefined;
    return row ? rowToTurn(row) : undefined;
  }

  async latestState(taskId: string): Promise<EngineState | undefined> {
    const last = this.statements.lastState.get(taskId) as { state: string } | undefined;
    if (last) return JSON.parse(last.state) as EngineState;
    const task = await this.getTask(taskId);
    return task?.initialState;
  }

  async close(): Promise<void> {
    this.opened.close();
  }
}
