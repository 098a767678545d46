/**
 * Messages on their way: shown at once as the user's bubble (pending), or with an inline error
 * and a retry. Keyed by task so a send finishing in another thread lands in the right place.
 * A retry flips the entry back to pending before anything is sent, so it can never send twice.
 */
import { create } from 'zustand';
import type { ApiError } from '../../api/errors';
import { MESSAGE_MAX_CHARS } from '../../lib/message-limit';
import { emptyRecord, ownValue, withEntry } from '../../lib/own-records';

export interface OutboxEntry {
  localId: string;
  taskId: string;
  text: string;
  status: 'pending' | 'error';
  startedAt: number;
  error?: ApiError;
}

interface OutboxState {
  /** Keyed by task id, which may be any name (read with `ownValue`). */
  byTask: Readonly<Record<string, OutboxEntry[]>>;
  /** Adds or resets an entry to pending; false when it is already pending (nothing to do). */
  begin: (entry: Omit<OutboxEntry, 'status' | 'startedAt' | 'error'>) => boolean;
  fail: (taskId: string, localId: string, error: ApiError) => void;
  remove: (taskId: string, localId: string) => void;
}

const EMPTY: OutboxEntry[] = [];

const listOf = (byTask: OutboxState['byTask'], taskId: string) => ownValue(byTask, taskId) ?? EMPTY;

export const useOutboxStore = create<OutboxState>()((setState, getState) => ({
  byTask: emptyRecord<OutboxEntry[]>(),
  begin: (e) => {
    const list = listOf(getState().byTask, e.taskId);
    const existing = list.find((x) => x.localId === e.localId);
    if (existing?.status === 'pending') return false;
    const entry: OutboxEntry = { ...e, status: 'pending', startedAt: Date.now() };
    const next = existing ? list.map((x) => (x.localId === e.localId ? entry : x)) : [...list, entry];
    setState((s) => ({ byTask: withEntry(s.byTask, e.taskId, next) }));
    return true;
  },
  fail: (taskId, localId, error) =>
    setState((s) => ({
      byTask: withEntry(
        s.byTask,
        taskId,
        listOf(s.byTask, taskId).map((x) =>
          x.localId === localId ? { ...x, status: 'error' as const, error } : x,
        ),
      ),
    })),
  remove: (taskId, localId) =>
    setState((s) => ({
      byTask: withEntry(
        s.byTask,
        taskId,
        listOf(s.byTask, taskId).filter((x) => x.localId !== localId),
      ),
    })),
}));

export const selectOutbox = (taskId: string) => (s: OutboxState) => listOf(s.byTask, taskId);

/**
 * False when sending the same text again cannot succeed: the service refused the message itself
 * (a 4xx naming the `text` field, or a text over the length limit). A network failure, a 5xx, a
 * refused key or a rejected bundle can be fixed elsewhere, so those keep their Retry.
 */
export function canRetry(entry: OutboxEntry): boolean {
  const error = entry.error;
  if (!error || error.status < 400 || error.status >= 500) return true;
  if (entry.text.length > MESSAGE_MAX_CHARS) return false;
  const detail = Array.isArray(error.detail) ? (error.detail as unknown[]) : [];
  return !detail.some((d) => {
    const loc = (d as { loc?: unknown } | null)?.loc;
    return Array.isArray(loc) && loc.at(-1) === 'text' && loc.length <= 2;
  });
}
