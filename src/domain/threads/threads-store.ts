/**
 * The thread list, kept in this browser so it survives reloads (one IndexedDB record per thread,
 * see thread-records-storage.ts). Other features add threads through `upsertThread` (a rerun's
 * branch, an imported thread) and may attach their own fields: records are merged, unknown fields
 * kept. A thread owns what it runs with (`runs_with`, see run-config.ts); its lineage is the
 * branches feature's, not kept here.
 *
 * A change (a send's `touchThread`, a rename, a new thread) replaces one record: the Map of
 * records is the store's own and is changed in place (never copied), `version` counts the changes,
 * the order moves at most one id, and one record is written. Components select one record
 * (`selectThread`), or `version` when they read many.
 */
import { create } from 'zustand';
import { reorder, sortedIds } from './thread-order';
import { browserRecordsBackend, threadRecordsStorage } from './thread-records-storage';
import type { RunConfig } from './run-config';
import type { ThreadRecord } from './thread-record';

export type { ThreadRecord } from './thread-record';
export type ThreadUpsert = Partial<ThreadRecord> & { id: string };

export interface ThreadsState {
  /** Every thread by id: the same Map for the store's life (read it, never change it). */
  threads: ReadonlyMap<string, ThreadRecord>;
  /** Changes whenever any record changes (for views that read many records). */
  version: number;
  /** Thread ids, newest activity first; kept up to date one thread at a time (thread-order.ts). */
  order: readonly string[];
  /** Changes whenever a thread is added or removed (not when one changes). */
  membership: number;
  /** Whether the stored threads have been read (until then the list holds this page's only). */
  loaded: boolean;
  /** Keys of stored records that could not be read as threads (skipped). */
  unreadable: readonly string[];
  upsertThread: (thread: ThreadUpsert) => void;
  removeThread: (id: string) => void;
  /** Marks activity (sorts the thread to the top). */
  touchThread: (id: string, at?: string) => void;
  /** Changes what this thread (only this one) runs with from its next message on. */
  setRunConfig: (id: string, config: RunConfig) => void;
  renameThread: (id: string, title: string) => void;
}

/** Where the records are written; its `write` is called once per changed record. */
export const threadRecords = threadRecordsStorage(browserRecordsBackend());

export const useThreadsStore = create<ThreadsState>()((setState, getState) => {
  /** One thread's record replaced (or added, or removed), the order kept in step, and stored. */
  const change = (id: string, next: ThreadRecord | undefined) => {
    const s = getState();
    const threads = s.threads as Map<string, ThreadRecord>;
    const prev = threads.get(id);
    // The order is placed by the records it was sorted by: before this one changes.
    const order = reorder(s.order, threads, prev, next);
    if (next) threads.set(id, next);
    else threads.delete(id);
    setState({
      order,
      version: s.version + 1,
      membership: prev && next ? s.membership : s.membership + 1,
    });
    if (next) threadRecords.write(next);
    else threadRecords.remove(id);
  };
  const recordOf = (id: string) => getState().threads.get(id);
  return {
    threads: new Map(),
    version: 0,
    order: [],
    membership: 0,
    loaded: false,
    unreadable: [],
    upsertThread: (t) => {
      const next: ThreadRecord = {
        title: '',
        agent_id: '',
        created_at: new Date().toISOString(),
        ...recordOf(t.id),
        ...t,
      };
      change(t.id, next);
    },
    removeThread: (id) => {
      if (recordOf(id)) change(id, undefined);
    },
    touchThread: (id, at) => {
      const prev = recordOf(id);
      if (prev) change(id, { ...prev, updated_at: at ?? new Date().toISOString() });
    },
    setRunConfig: (id, config) => {
      const prev = recordOf(id);
      if (prev) change(id, { ...prev, runs_with: { ...config } });
    },
    renameThread: (id, title) => {
      const prev = recordOf(id);
      const next = title.trim();
      if (prev && next && prev.title !== next) change(id, { ...prev, title: next });
    },
  };
});

/**
 * Puts these records in the list (the stored ones, once read), sorted once. A thread this page
 * already changed keeps its fields over the stored ones, and is written again.
 */
export function addLoadedThreads(
  loaded: ReadonlyMap<string, ThreadRecord>,
  unreadable: readonly string[],
): void {
  const s = useThreadsStore.getState();
  const threads = s.threads as Map<string, ThreadRecord>;
  for (const [id, stored] of loaded) {
    const here = threads.get(id);
    if (!here) threads.set(id, stored);
    else {
      const merged = { ...stored, ...here };
      threads.set(id, merged);
      threadRecords.write(merged);
    }
  }
  useThreadsStore.setState({
    order: sortedIds(threads),
    version: s.version + 1,
    membership: s.membership + 1,
    loaded: true,
    unreadable: [...s.unreadable, ...unreadable],
  });
}

/** Replaces every thread in memory (nothing is written): the list a test starts from. */
export function replaceThreads(records: Iterable<ThreadRecord>): void {
  const s = useThreadsStore.getState();
  const threads = s.threads as Map<string, ThreadRecord>;
  threads.clear();
  for (const r of records) threads.set(r.id, r);
  useThreadsStore.setState({
    order: sortedIds(threads),
    version: s.version + 1,
    membership: s.membership + 1,
  });
}

void threadRecords.load().then(({ records, unreadable }) => addLoadedThreads(records, unreadable));

if (typeof window !== 'undefined') {
  const flush = () => void threadRecords.flush();
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
}

export const selectThread = (id: string | undefined) => (s: ThreadsState) =>
  id ? s.threads.get(id) : undefined;
export const selectUpsertThread = (s: ThreadsState) => s.upsertThread;
export const selectRemoveThread = (s: ThreadsState) => s.removeThread;
export const selectOrder = (s: ThreadsState) => s.order;
export const selectMembership = (s: ThreadsState) => s.membership;
export const selectVersion = (s: ThreadsState) => s.version;
export const selectLoaded = (s: ThreadsState) => s.loaded;
export const selectUnreadable = (s: ThreadsState) => s.unreadable;
