/**
 * The thread list, kept in this browser (IndexedDB) so it survives reloads. Other features add
 * threads through `upsertThread` (a rerun's branch, an imported thread) and may attach their own
 * fields: records are merged, unknown fields kept.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { idbPersistStorage } from '../../lib/idb-storage';

export interface ThreadRecord {
  id: string;
  title: string;
  agent_id: string;
  created_at: string;
  updated_at?: string;
  user_id?: string;
  welcome_message?: string | null;
  /** Starter suggestions from task creation. */
  suggestions?: string[];
  version_id?: string;
  version_tag?: string;
  /** Set for a branch made by a rerun. */
  parent?: { task_id: string; interaction_id: string };
  [extra: string]: unknown;
}

export type ThreadUpsert = Partial<ThreadRecord> & { id: string };

interface ThreadsState {
  threads: Record<string, ThreadRecord>;
  upsertThread: (thread: ThreadUpsert) => void;
  removeThread: (id: string) => void;
  /** Marks activity (sorts the thread to the top). */
  touchThread: (id: string, at?: string) => void;
}

export const useThreadsStore = create<ThreadsState>()(
  persist(
    (setState) => ({
      threads: {},
      upsertThread: (t) =>
        setState((s) => {
          const prev = s.threads[t.id];
          const now = new Date().toISOString();
          const next: ThreadRecord = {
            title: '',
            agent_id: '',
            created_at: now,
            ...prev,
            ...t,
          };
          return { threads: { ...s.threads, [t.id]: next } };
        }),
      removeThread: (id) =>
        setState((s) => {
          if (!(id in s.threads)) return s;
          const { [id]: _gone, ...rest } = s.threads;
          return { threads: rest };
        }),
      touchThread: (id, at) =>
        setState((s) => {
          const prev = s.threads[id];
          if (!prev) return s;
          return { threads: { ...s.threads, [id]: { ...prev, updated_at: at ?? new Date().toISOString() } } };
        }),
    }),
    {
      name: 'threadline:threads',
      version: 1,
      storage: idbPersistStorage<Pick<ThreadsState, 'threads'>>(),
      partialize: (s) => ({ threads: s.threads }),
    },
  ),
);

/** Newest activity first. */
export function sortThreads(threads: Record<string, ThreadRecord>): ThreadRecord[] {
  const key = (t: ThreadRecord) => t.updated_at ?? t.created_at ?? '';
  return Object.values(threads).sort((a, b) =>
    key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : a.id.localeCompare(b.id),
  );
}

export const selectThreads = (s: ThreadsState) => s.threads;
export const selectThread = (id: string | undefined) => (s: ThreadsState) => (id ? s.threads[id] : undefined);
export const selectUpsertThread = (s: ThreadsState) => s.upsertThread;
export const selectRemoveThread = (s: ThreadsState) => s.removeThread;
