/**
 * Runs the SQLite writes of a send (`sqlite-send-writes.ts`) for the store: in its writer thread
 * (`sqlite-writer.ts`, a one-thread worker pool) when the database is a file, so the request loop
 * keeps answering while SQLite writes a large turn; on the store's own connection when the
 * database is in memory (a second connection could not see it).
 */
import type Database from 'better-sqlite3';
import { WorkerPool } from '../work/pool';
import { SqliteSendWrites } from './sqlite-send-writes';
import type { SqliteTurnIndex } from './sqlite-turn-index';
import type { SqliteWriteJob, WriterTarget } from './sqlite-writer';
import type { NewTurn, StoredBundle } from './store';

export interface SendWriter {
  /** Stores `turn` as the task's next turn if its thread still has `turnsBefore` turns; false when it moved. */
  appendAt(taskId: string, turnsBefore: number, turn: NewTurn): Promise<boolean>;
  putBundle(bundle: StoredBundle, createdAt: string): Promise<void>;
  /** Moves the turn index's pending rows into its tables; a search awaits it first. */
  catchUpIndex(): Promise<void>;
  /** Starts the writer thread now, not with the first write (which would wait for it to load). */
  start(): void;
  close(): Promise<void>;
}

/** Longest time a timer may wait: a write is never cut (one cut after its commit would be stored yet refused). */
const NO_DEADLINE = 2 ** 31 - 1;

export function openSendWriter(
  db: Database.Database,
  turnIndex: SqliteTurnIndex,
  file: WriterTarget | undefined,
): SendWriter {
  if (!file) {
    const writes = new SqliteSendWrites(db, turnIndex);
    return {
      appendAt: async (taskId, turnsBefore, turn) => {
        const stored = writes.appendAt(taskId, turnsBefore, turn);
        if (stored) writes.indexWhileIdle();
        return stored;
      },
      putBundle: async (bundle, createdAt) => writes.putBundle(bundle, createdAt),
      catchUpIndex: async () => writes.catchUpIndex(),
      start: () => {},
      close: async () => {},
    };
  }
  const thread = new WorkerPool({
    script: new URL('./sqlite-writer.mjs', import.meta.url),
    size: 1,
    // Sends wait for the engine pool first (its queue is bounded), so few writes ever wait here.
    queueLimit: 1000,
    // The service's own writes, one share: all of the queue is theirs, and they wait as long as it takes.
    keyQueueLimit: 1000,
    deadlineMs: NO_DEADLINE,
    maxWaitMs: NO_DEADLINE,
    heapLimitMb: 256,
  });
  const run = <T>(job: SqliteWriteJob) => thread.run<T>(job);
  // One catch-up serves every search that asks while it waits or runs: the writer runs one job at
  // a time, so every turn answered before the search asked is pending before that catch-up runs.
  // Many searches thus put one catch-up, not one each, ahead of the next send's write.
  let catchingUp: Promise<void> | undefined;
  return {
    appendAt: (taskId, turnsBefore, turn) =>
      run<boolean>({ ...file, kind: 'append', taskId, turnsBefore, turn }),
    putBundle: (bundle, createdAt) => run<void>({ ...file, kind: 'putBundle', bundle, createdAt }),
    catchUpIndex: () =>
      (catchingUp ??= run<void>({ ...file, kind: 'catchUpIndex' }).finally(() => (catchingUp = undefined))),
    start: () => thread.start(),
    close: () => thread.close(),
  };
}
