/**
 * The thread list, kept in this browser (IndexedDB) so it survives reloads. Other features add
 * threads through `upsertThread` (a rerun's branch, an imported thread) and may attach their own
 * fields: records are merged, unknown fields kept. A thread owns what it runs with
 * (`runs_with`, see run-config.ts); its lineage is the branches feature's, not kept here.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { idbPersistStorage } from '../../lib/idb-storage';
import type { RunConfig } from './run-config';
import { reorder, sortedIds } from './thread-order';

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
  /** The version the task was created with (the server's answer, else the pin asked for). */
  version_id?: string;
  version_tag?: string;
  /** What the thread's next messages are sent with; absent = the agent's own bundle. */
  runs_with?: RunConfig;
  [extra: string]: unknown;
}

export type ThreadUpsert = Partial<ThreadRecord> & { id: string };

interface ThreadsState {
  threads: Record<string, ThreadRecord>;
  /** Thread ids, newest activity first; kept up to date one thread at a time (thread-order.ts). */
  order: readonly string[];
  /** Changes whenever a thread is added or removed (not when one changes). */
  membership: number;
  upsertThread: (thread: ThreadUpsert) => void;
  removeThread: (id: string) => void;
  /** Marks activity (sorts the thread to the top). */
  touchThread: (id: string, at?: string) => void;
  /** Changes what this thread (only this one) runs with from its next message on. */
  setRunConfig: (id: string, config: RunConfig) => void;
  renameThread: (id: string, title: string) => void;
}

/** One thread's record replaced (or added, or removed), with the order kept in step. */
function withThread(
  s: Pick<ThreadsState, 'threads' | 'order' | 'membership'>,
  id: string,
  next: ThreadRecord | undefined,
): Pick<ThreadsState, 'threads' | 'order' | 'membership'> {
  const prev = s.threads[id];
  const order = reorder(s.order, s.threads, prev, next);
  const membership = prev && next ? s.membership : s.membership + 1;
  if (next) return { threads: { ...s.threads, [id]: next }, order, membership };
  const { [id]: _gone, ...rest } = s.threads;
  return { threads: rest, order, membership };
}

export const useThreadsStore = create<ThreadsState>()(
  persist(
    (setState) => ({
      threads: {},
      order: [],
      membership: 0,
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
          return withThread(s, t.id, next);
        }),
      removeThread: (id) =>
        setState((s) => {
          if (!(id in s.threads)) return s;
          return withThread(s, id, undefined);
        }),
      touchThread: (id, at) =>
        setState((s) => {
          const prev = s.threads[id];
          if (!prev) return s;
          return withThread(s, id, { ...prev, updated_at: at ?? new Date().toISOString() });
        }),
      setRunConfig: (id, config) =>
        setState((s) => {
          const prev = s.threads[id];
          if (!prev) return s;
          return withThread(s, id, { ...prev, runs_with: { ...config } });
        }),
      renameThread: (id, title) =>
        setState((s) => {
          const prev = s.threads[id];
          const next = title.trim();
          if (!prev || !next || prev.title === next) return s;
          return withThread(s, id, { ...prev, title: next });
        }),
    }),
    {
      name: 'threadline:threads',
      version: 1,
      storage: idbPersistStorage<Pick<ThreadsState, 'threads'>>({ deferWrites: true }),
      partialize: (s) => ({ threads: s.threads }),
      // The order is sorted once, when the threads are loaded.
      merge: (persisted, current) => {
        const threads = { ...current.threads, ...(persisted as Partial<ThreadsState> | undefined)?.threads };
        return { ...current, threads, order: sortedIds(threads), membership: current.membership + 1 };
      },
    },
  ),
);

/** Newest activity first (a whole sort: for callers outside the list, which keeps `order`). */
export function sortThreads(threads: Record<string, ThreadRecord>): ThreadRecord[] {
  return sortedIds(threads).map((id) => threads[id]!);
}

export const selectThreads = (s: ThreadsState) => s.threads;
export const selectThread = (id: string | undefined) => (s: ThreadsState) => (id ? s.threads[id] : undefined);
export const selectUpsertThread = (s: ThreadsState) => s.upsertThread;
export const selectRemoveThread = (s: ThreadsState) => s.removeThread;
export const selectOrder = (s: ThreadsState) => s.order;
export const selectMembership = (s: ThreadsState) => s.membership;
