/**
 * The SQLite store's writer thread: runs the writes of a send (`sqlite-send-writes.ts`) on a
 * connection of its own to the store's database file, so the request loop never waits while
 * SQLite writes a turn's trace. It speaks the worker pool's messages (`../work/pool.ts`): one job
 * at a time, answered `{ id, ok, value }`, or its error with SQLite's code (a full disk stays a
 * full disk for the answer).
 */
import Database from 'better-sqlite3';
import { parentPort } from 'node:worker_threads';
import { runThisThreadInBackground } from '../work/background-priority';
import { SqliteSendWrites } from './sqlite-send-writes';
import type { NewTurn, StoredBundle } from './store';

/** The database file and how it is opened (as the store's own connection). */
export interface WriterTarget {
  file: string;
  synchronous: 'NORMAL' | 'FULL';
}

export type SqliteWriteJob = WriterTarget &
  (
    | { kind: 'append'; taskId: string; turnsBefore: number; turn: NewTurn }
    | { kind: 'putBundle'; bundle: StoredBundle; createdAt: string }
    | { kind: 'catchUpIndex' }
  );

let opened: { file: string; writes: SqliteSendWrites } | undefined;

function writesFor({ file, synchronous }: WriterTarget): SqliteSendWrites {
  if (opened?.file === file) return opened.writes;
  const db = new Database(file);
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  opened = { file, writes: new SqliteSendWrites(db) };
  return opened.writes;
}

function perform(job: SqliteWriteJob): unknown {
  const writes = writesFor(job);
  switch (job.kind) {
    case 'append': {
      const stored = writes.appendAt(job.taskId, job.turnsBefore, job.turn);
      // After this answer is posted: indexing never delays the send that caused it.
      if (stored) writes.indexWhileIdle();
      return stored;
    }
    case 'putBundle':
      return writes.putBundle(job.bundle, job.createdAt);
    case 'catchUpIndex':
      return writes.catchUpIndex();
  }
}

runThisThreadInBackground();
parentPort!.postMessage({ ready: true });
parentPort!.on('message', ({ id, job }: { id: number; job: SqliteWriteJob }) => {
  try {
    parentPort!.postMessage({ id, ok: true, value: perform(job) });
  } catch (error) {
    const { name, message, code } = (error instanceof Error ? error : new Error(String(error))) as Error & {
      code?: unknown;
    };
    parentPort!.postMessage({
      id,
      ok: false,
      error: { name, message, ...(typeof code === 'string' ? { code } : {}) },
    });
  }
});
