/**
 * Opening the SQLite database of a data folder, checked before the service says it is running:
 *
 * 1. the folder exists or can be created;
 * 2. no other service uses it: `threadline.lock` beside the database is held with an exclusive
 *    SQLite lock (an operating-system file lock) for as long as the store is open. The lock goes
 *    with the process, `kill -9` included, so there is never a stale lock to remove; other
 *    programs may still read `threadline.db`;
 * 3. the database opens, switches to WAL, and passes `PRAGMA quick_check` (its pages are sound);
 * 4. it can be written (a read-only file would otherwise start fine, then fail every write).
 *
 * Any failure is a `StorageStartError` whose message is one line naming the file and what to do.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeAtStart, storageFault } from './storage-faults';

export const DATABASE_FILE = 'threadline.db';
const LOCK_FILE = 'threadline.lock';

export class StorageStartError extends Error {}

export interface OpenDatabase {
  db: Database.Database;
  /** Closes the database, then releases the folder's lock. */
  close(): void;
}

function refuse(error: unknown, file: string, folder: string): never {
  if (error instanceof StorageStartError) throw error;
  const fault = storageFault(error);
  if (!fault) throw error;
  throw new StorageStartError(describeAtStart(fault, file, folder));
}

/** Holds the folder's lock file; throws when another process holds it. */
function lockFolder(folder: string): Database.Database {
  const file = join(folder, LOCK_FILE);
  let lock: Database.Database | undefined;
  try {
    lock = new Database(file, { timeout: 0 });
    // In exclusive locking mode the lock taken by the first write is kept until close. The write
    // is a real one: a read-only file would take no lock at all.
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.pragma('journal_mode = OFF'); // nothing worth a journal: no `threadline.lock-journal` beside it
    lock.exec(
      "BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (since TEXT); DELETE FROM held; INSERT INTO held VALUES (datetime('now')); COMMIT",
    );
    return lock;
  } catch (error) {
    lock?.close();
    refuse(error, file, folder);
  }
}

export function openDatabase(dataDir: string, synchronous: 'NORMAL' | 'FULL'): OpenDatabase {
  if (dataDir === ':memory:') {
    const db = new Database(':memory:');
    db.pragma(`synchronous = ${synchronous}`);
    return { db, close: () => db.close() };
  }
  const file = join(dataDir, DATABASE_FILE);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    refuse(error, dataDir, dataDir);
  }
  const lock = lockFolder(dataDir);
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new StorageStartError(describeAtStart('corrupt', file, dataDir));
    // A write that is rolled back: a read-only database opens and reads fine, then fails every write.
    db.exec('BEGIN IMMEDIATE; CREATE TABLE threadline_write_probe (x); ROLLBACK');
  } catch (error) {
    db?.close();
    lock.close();
    refuse(error, file, dataDir);
  }
  const opened = db;
  return {
    db: opened,
    close() {
      if (opened.open) opened.close();
      if (lock.open) lock.close();
    },
  };
}
