/**
 * Messages on their way: shown at once as the user's bubble (pending), or with an inline error
 * and a retry. Keyed by task so a send finishing in another thread lands in the right place.
 * A retry flips the entry back to pending before anything is sent, so it can never send twice.
 */
import { create } from 'zustand';
import type { ApiError } from '../../api/errors';

export interface OutboxEntry {
  localId: string;
  taskId: string;
  text: string;
  status: 'pending' | 'error';
  startedAt: number;
  error?: ApiError;
}

interface OutboxState {
  byTask: Record<string, OutboxEntry[]>;
  /** Adds or resets an entry to pending; false when it is already pending (nothing to do). */
  begin: (entry: Omit<OutboxEntry, 'status' | 'startedAt' | 'error'>) => boolean;
  fail: (taskId: string, localId: string, error: ApiError) => void;
  remove: (taskId: string, localId: string) => void;
}

const EMPTY: OutboxEntry[] = [];

export const useOutboxStore = create<OutboxState>()((setState, getState) => ({
  byTask: {},
  begin: (e) => {
    const list = getState().byTask[e.taskId] ?? EMPTY;
    const existing = list.find((x) => x.localId === e.localId);
    if (existing?.status === 'pending') return false;
    const entry: OutboxEntry = { ...e, status: 'pending', startedAt: Date.now() };
    const next = existing ? list.map((x) => (x.localId === e.localId ? entry : x)) : [...list, entry];
    setState((s) => ({ byTask: { ...s.byTask, [e.taskId]: next } }));
    return true;
  },
  fail: (taskId, localId, error) =>
    setState((s) => ({
      byTask: {
        ...s.byTask,
        [taskId]: (s.byTask[taskId] ?? EMPTY).map((x) =>
          x.localId === localId ? { ...x, status: 'error' as const, error } : x,
        ),
      },
    })),
  remove: (taskId, localId) =>
    setState((s) => ({
      byTask: { ...s.byTask, [taskId]: (s.byTask[taskId] ?? EMPTY).filter((x) => x.localId !== localId) },
    })),
}));

export const selectOutbox = (taskId: string) => (s: OutboxState) => s.byTask[taskId] ?? EMPTY;
