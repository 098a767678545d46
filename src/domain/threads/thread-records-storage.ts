/**
 * Where the thread list is kept: one IndexedDB record per thread (database `threadline-threads`,
 * store `threads`, keyed by thread id), so a send writes the one record that changed whatever the
 * number of threads. Writes wait for an idle moment (at most `DEFERRED_WRITE_MS`) and only a
 * record's latest value in a burst is written; pending writes are flushed when the page is hidden
 * or left.
 *
 * Loading reads every record; a record that is not a thread (damaged) is skipped and its key
 * reported, the others load. The list used to be stored whole, as one value under
 * `threadline:threads` in the app's key-value store: the first load after the upgrade copies its
 * threads into records of their own (a thread that already has its own record keeps it) and
 * deletes the old value once every copy is written, so a failed copy is tried again next time.
 *
 * Where IndexedDB is missing or refuses (tests, private modes, quota), the records live in memory
 * for the page's life and nothing else breaks.
 */
import { createStore, delMany, entries, setMany } from 'idb-keyval';
import { DEFERRED_WRITE_MS, idbDel, idbGet } from '../../lib/idb-storage';
import { readThreadRecord, type ThreadRecord } from './thread-record';

/** What the storage needs from IndexedDB (a fake in tests). */
export interface RecordsBackend {
  readAll: () => Promise<Array<[IDBValidKey, unknown]>>;
  /** Writes these records in one transaction (all or none). */
  putMany: (records: ReadonlyArray<[string, ThreadRecord]>) => Promise<void>;
  deleteMany: (ids: readonly string[]) => Promise<void>;
  /** The list stored whole, as before one record per thread (undefined when there is none). */
  readLegacy: () => Promise<unknown>;
  deleteLegacy: () => Promise<void>;
}

/** The key the whole list was stored under before. */
export const LEGACY_KEY = 'threadline:threads';

export interface LoadedRecords {
  records: Map<string, ThreadRecord>;
  /** Keys of stored values that are not threads (skipped; left as they are). */
  unreadable: string[];
}

const describeKey = (key: unknown) => (typeof key === 'string' ? key : (JSON.stringify(key) ?? String(key)));

/** The threads of the list as it was stored whole (`{ state: { threads }, version }`). */
function legacyEntries(legacy: unknown): Array<[string, unknown]> | null {
  const state = (legacy as { state?: { threads?: unknown } } | null)?.state;
  const threads = state?.threads;
  if (typeof threads !== 'object' || threads === null || Array.isArray(threads)) return null;
  return Object.entries(threads as Record<string, unknown>);
}

export interface ThreadRecordsStorage {
  load: () => Promise<LoadedRecords>;
  /** Keeps this record (written at the next idle moment). */
  write: (record: ThreadRecord) => void;
  /** Forgets the record of this thread (at the next idle moment). */
  remove: (id: string) => void;
  /** Writes what is pending now. */
  flush: () => Promise<void>;
}

export function threadRecordsStorage(backend: RecordsBackend): ThreadRecordsStorage {
  /** By id: the record to write, or null to delete it. */
  const pending = new Map<string, ThreadRecord | null>();
  let scheduled = false;
  let warned = false;
  const warnOnce = (what: string, error: unknown) => {
    if (warned) return;
    warned = true;
    console.warn(`Threads: ${what} (kept in this page until it is reloaded).`, error);
  };

  async function flush(): Promise<void> {
    scheduled = false;
    if (pending.size === 0) return;
    const batch = [...pending];
    pending.clear();
    const puts = batch.filter((e): e is [string, ThreadRecord] => e[1] !== null);
    const deletes = batch.filter(([, r]) => r === null).map(([id]) => id);
    if (deletes.length > 0) await backend.deleteMany(deletes).catch((e) => warnOnce('not forgotten', e));
    if (puts.length === 0) return;
    try {
      await backend.putMany(puts);
    } catch {
      // One record the store refuses (too large, not cloneable) must not cost the others theirs.
      for (const entry of puts)
        await backend.putMany([entry]).catch((e) => warnOnce(`thread ${entry[0]} not stored`, e));
    }
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    const run = () => void flush();
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: DEFERRED_WRITE_MS });
    else setTimeout(run, DEFERRED_WRITE_MS);
  }

  async function load(): Promise<LoadedRecords> {
    const records = new Map<string, ThreadRecord>();
    const unreadable: string[] = [];
    const stored = await backend.readAll().catch((e: unknown) => {
      warnOnce('the stored threads could not be read', e);
      return [];
    });
    for (const [key, value] of stored) {
      const record = readThreadRecord(key, value);
      if (record) records.set(record.id, record);
      else unreadable.push(describeKey(key));
    }
    const legacy = await backend.readLegacy().catch(() => undefined);
    if (legacy === undefined) return { records, unreadable };
    const old = legacyEntries(legacy);
    if (!old) {
      unreadable.push(LEGACY_KEY);
      return { records, unreadable };
    }
    const copies: Array<[string, ThreadRecord]> = [];
    for (const [id, value] of old) {
      if (records.has(id)) continue;
      const record = readThreadRecord(id, value);
      if (!record) {
        unreadable.push(id);
        continue;
      }
      records.set(id, record);
      copies.push([id, record]);
    }
    try {
      if (copies.length > 0) await backend.putMany(copies);
      await backend.deleteLegacy();
    } catch (e) {
      // The old value stays: the threads are shown from it, and copied again next time.
      warnOnce('the thread list could not be stored one record per thread', e);
    }
    return { records, unreadable };
  }

  return {
    load,
    write: (record) => {
      pending.set(record.id, record);
      schedule();
    },
    remove: (id) => {
      pending.set(id, null);
      schedule();
    },
    flush,
  };
}

/** IndexedDB through idb-keyval, opened on first use; memory where there is no IndexedDB. */
export function browserRecordsBackend(): RecordsBackend {
  if (typeof indexedDB === 'undefined') return memoryRecordsBackend();
  let store: ReturnType<typeof createStore> | undefined;
  const threads = () => (store ??= createStore('threadline-threads', 'threads'));
  return {
    readAll: () => entries(threads()),
    putMany: (records) => setMany([...records], threads()),
    deleteMany: (ids) => delMany([...ids], threads()),
    readLegacy: () => idbGet(LEGACY_KEY),
    deleteLegacy: () => idbDel(LEGACY_KEY),
  };
}

/** Records kept in memory only (no IndexedDB here). */
function memoryRecordsBackend(): RecordsBackend {
  const kept = new Map<string, ThreadRecord>();
  return {
    readAll: () => Promise.resolve([...kept]),
    putMany: (records) => {
      for (const [id, r] of records) kept.set(id, r);
      return Promise.resolve();
    },
    deleteMany: (ids) => {
      for (const id of ids) kept.delete(id);
      return Promise.resolve();
    },
    readLegacy: () => Promise.resolve(undefined),
    deleteLegacy: () => Promise.resolve(),
  };
}
