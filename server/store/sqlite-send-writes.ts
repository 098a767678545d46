/**
 * The SQLite writes of a send: its turn (with its turn index entry and the task's place in the
 * thread list, in one transaction) and the bundle it ran with. A turn's row can be 8 MB of trace,
 * which SQLite takes tens of milliseconds to write, so the store runs these in a thread of their
 * own with its own connection (`sqlite-writer.ts`) when the database is a file; an in-memory
 * database (tests) runs them on its one connection. Between sends, the same writer moves the turn
 * index's pending rows into its tables and merges its full-text segments (`indexWhileIdle`).
 */
import type Database from 'better-sqlite3';
import { indexEntryAt } from './index-entry-at';
import { TURN_COLUMNS, turnToRow } from './rows';
import { SqliteTurnIndex } from './sqlite-turn-index';
import type { NewTurn, StoredBundle } from './store';

/** `a, b` → `@a, @b`: named parameters for a column list. */
export const placeholders = (columns: string) =>
  columns
    .split(', ')
    .map((c) => `@${c}`)
    .join(', ');

/** Above every task's activity (read from the activity index; writes are serialised). */
export const NEXT_ACTIVITY = '(SELECT COALESCE(MAX(activity), 0) + 1 FROM tasks)';

/**
 * The task's agent and user, its thread's length (its last own position, or what it inherits), and
 * the state after its last own turn with that turn's position (`tip_seq`, null before its first).
 */
export const TASK_LENGTH = `SELECT tasks.agent_id, tasks.user_id, COALESCE((SELECT MAX(seq) FROM turns WHERE task_id = tasks.id), tasks.inherited_turns) AS length,
   tasks.tip_seq, tasks.tip_state
   FROM tasks WHERE tasks.id = ?`;

/** A task's length with its tip state as `TASK_LENGTH` reads them. */
export interface TaskLength {
  agent_id: string;
  user_id: string;
  length: number;
  tip_seq: number | null;
  tip_state: string | null;
}

/** Keeps the state after turn `seq` as the task's tip (with the turn, in its transaction). */
export const SET_TIP = 'UPDATE tasks SET tip_seq = @seq, tip_state = @state WHERE id = @task';

export class SqliteSendWrites {
  private readonly taskLength;
  private readonly insertTurn;
  private readonly touchTask;
  private readonly putBundleRow;
  private indexing = false;

  constructor(
    private readonly db: Database.Database,
    private readonly turnIndex = new SqliteTurnIndex(db),
  ) {
    this.taskLength = db.prepare(TASK_LENGTH);
    this.insertTurn = db.prepare(
      `INSERT INTO turns (${TURN_COLUMNS}) VALUES (${placeholders(TURN_COLUMNS)})`,
    );
    /** The task moves to the top of the thread list and keeps the turn's state as its tip (in the transaction that stores its turn). */
    this.touchTask = db.prepare(
      `UPDATE tasks SET activity = ${NEXT_ACTIVITY}, tip_seq = @seq, tip_state = @state WHERE id = @task`,
    );
    this.putBundleRow = db.prepare(
      'INSERT OR IGNORE INTO bundles (hash, agent_id, content, created_at) VALUES (?, ?, ?, ?)',
    );
  }

  /**
   * Stores `turn` as task `taskId`'s next turn if its thread still has `turnsBefore` turns; false
   * (nothing stored) when it has moved on. IMMEDIATE: the write lock is taken before the length is
   * read, so no other writer slips in between.
   */
  appendAt(taskId: string, turnsBefore: number, turn: NewTurn): boolean {
    return this.db
      .transaction(() => {
        const task = this.taskLength.get(taskId) as TaskLength | undefined;
        if (!task) throw new Error(`appendTurn: no task ${taskId}`);
        if (task.length !== turnsBefore) return false;
        const seq = turnsBefore + 1;
        const row = turnToRow({ ...turn, taskId }, seq);
        this.insertTurn.run(row);
        this.touchTask.run({ task: taskId, seq, state: row.state });
        this.turnIndex.add(
          indexEntryAt({ agentId: task.agent_id, userId: task.user_id }, { ...turn, taskId }, seq),
        );
        return true;
      })
      .immediate();
  }

  /**
   * Brings the turn index up to date after the current job: its pending rows moved in, then its
   * full-text segments merged, one bounded step per turn of the event loop while there is work
   * left, so a write arriving meanwhile waits for one step at most. Call it after a turn is stored;
   * work already under way goes on.
   */
  indexWhileIdle(): void {
    if (this.indexing) return;
    this.indexing = true;
    const step = () => {
      let more = false;
      try {
        more = this.turnIndex.indexStep() || this.turnIndex.mergeStep();
      } catch {
        // A closed or busy database: the work waits for the next stored turn or search (FTS5 still
        // merges sixteen segments of one level at once, so the index never grows unmerged).
      }
      if (more) setImmediate(step);
      else this.indexing = false;
    };
    setImmediate(step);
  }

  /** Moves every pending row into the index: a search reads the index after this. */
  catchUpIndex(): void {
    this.turnIndex.catchUp();
  }

  /** Keeps a bundle by hash for an agent (a no-op when already kept). */
  putBundle(bundle: StoredBundle, createdAt: string): void {
    this.putBundleRow.run(bundle.hash, bundle.agentId, bundle.content, createdAt);
  }
}
