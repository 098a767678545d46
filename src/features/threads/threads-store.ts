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
  upsertThread: (thread: ThreadUpsert) => void;
  removeThread: (id: string) => void;
  /** Marks activity (sorts the thread to the top). */
  touchThread: (id: string, at?: string) => void;
  /** Changes what this thread (only this one) runs with from its next message on. */
  setRunConfig: (id: string, config: RunConfig) => void;
  renameThread: (id: string, title: string) => void;
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
      setRunConfig: (id, config) =>
        setState((s) => {
          const prev = s.threads[id];
          if (!prev) return s;
          return { threads: { ...s.threads, [id]: { ...prev, runs_with: { ...config } } } };
        }),
      renameThread: (id, title) =>
        setState((s) => {
          const prev = s.threads[id];
          const next = title.trim();
          if (!prev || !next || prev.title === next) return s;
          return { threads: { ...s.threads, [id]: { ...prev, title: next } } };
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
