/**
 * What this browser sent and received in each thread, kept in IndexedDB (one key per task).
 * The API has no "list messages" endpoint: the transcript is built from the trace list, and this
 * cache fills what a server's traces lack (the user's text, the reply, the suggestions, the
 * measured round trip). Read through TanStack Query so components share one copy.
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { keepRecordedChanges } from '../../api/structural-sharing';
import type { UnreadField } from '../../contract/tolerant';
import { appended, replacedAt } from '../../lib/array-change';
import { idbGet, idbSet } from '../../lib/idb-storage';

export interface LocalTurn {
  /** The interaction id (= the reply's message id). */
  id: string;
  user_text: string;
  reply_text: string;
  suggestions: string[];
  decision?: string;
  created_at: string;
  rtt_ms?: number;
  /** Hash of the local bundle the turn ran with (null = the agent's own). */
  bundle_hash?: string | null;
  /** The version the turn ran with, as the service answered. */
  version_id?: string;
  /** Reply fields that arrived in another shape (see contract/tolerant.ts). */
  unread?: UnreadField[];
}

export const localKeys = {
  all: ['local'] as const,
  turns: (taskId: string) => [...localKeys.all, 'turns', taskId] as const,
};

const storageKey = (taskId: string) => `threadline:turns:${taskId}`;

export async function readLocalTurns(taskId: string): Promise<LocalTurn[]> {
  const v = await idbGet<LocalTurn[]>(storageKey(taskId));
  return Array.isArray(v) ? v : [];
}

export const localTurnsQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: localKeys.turns(taskId),
    queryFn: () => readLocalTurns(taskId),
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    // A send appends or replaces one record: kept as is (no deep comparison of the whole list).
    structuralSharing: keepRecordedChanges,
  });

export function useLocalTurns(taskId: string | undefined) {
  return useQuery({ ...localTurnsQueryOptions(taskId ?? ''), enabled: Boolean(taskId) });
}

/** Appends (or replaces, by id) one turn of a thread, in the cache and in IndexedDB. */
export async function recordLocalTurn(
  queryClient: QueryClient,
  taskId: string,
  turn: LocalTurn,
): Promise<void> {
  const current = await queryClient.ensureQueryData(localTurnsQueryOptions(taskId));
  const at = current.findIndex((t) => t.id === turn.id);
  const next = at === -1 ? appended(current, turn) : replacedAt(current, at, turn);
  queryClient.setQueryData(localKeys.turns(taskId), next);
  await idbSet(storageKey(taskId), next);
}
