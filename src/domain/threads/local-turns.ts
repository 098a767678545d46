/**
 * What this browser sent and received in each thread, kept in IndexedDB (one key per task).
 * The API has no "list messages" endpoint: the transcript is built from the trace list, and this
 * cache fills what a server's traces lack (the user's text, the reply, the suggestions, the
 * measured round trip). Read through TanStack Query so components share one copy.
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiKeys } from '../../api/keys';
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
  /**
   * The interaction id the answer's trace carried, when it is not the message id (a service that
   * sends another value, or a number): the trace list's item with this id is this turn.
   */
  trace_id?: string;
}

/**
 * Stored in chunks of CHUNK turns, so that a send writes one chunk (the one its turn is in)
 * whatever the thread's length: chunk 0 under `threadline:turns:<task>`, chunk k under
 * `threadline:turns:<task>:k`. A thread stored whole under the first key (as before chunks) is
 * read as it is and written in chunks at its next send.
 */
export const CHUNK = 100;
const chunkKey = (taskId: string, k: number) =>
  k === 0 ? `threadline:turns:${taskId}` : `threadline:turns:${taskId}:${k}`;
/** Threads read in the older, whole-list form: their next write stores every chunk. */
const storedWhole = new Set<string>();

export async function readLocalTurns(taskId: string): Promise<LocalTurn[]> {
  const out: LocalTurn[] = [];
  for (let k = 0; ; k += 1) {
    const chunk = await idbGet<LocalTurn[]>(chunkKey(taskId, k));
    if (!Array.isArray(chunk)) break;
    if (k === 0 && chunk.length > CHUNK) {
      storedWhole.add(taskId);
      return chunk;
    }
    for (const t of chunk) out.push(t);
    if (chunk.length < CHUNK) break;
  }
  return out;
}

/** Stores the chunk holding turn `index` of `turns` (every chunk, for a thread stored whole). */
async function writeChunks(taskId: string, turns: readonly LocalTurn[], index: number): Promise<void> {
  const whole = storedWhole.delete(taskId);
  const first = whole ? 0 : Math.floor(index / CHUNK);
  const last = whole ? Math.floor((turns.length - 1) / CHUNK) : first;
  for (let k = first; k <= last; k += 1)
    await idbSet(chunkKey(taskId, k), turns.slice(k * CHUNK, (k + 1) * CHUNK));
}

export const localTurnsQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: apiKeys.localTurns(taskId),
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
  const read = await queryClient.ensureQueryData(localTurnsQueryOptions(taskId));
  // The cache as it is now: another record may have landed while the read was awaited.
  const current = queryClient.getQueryData<LocalTurn[]>(apiKeys.localTurns(taskId)) ?? read;
  // A replaced turn is almost always one of the last: look from the end.
  let at = current.length - 1;
  while (at >= 0 && current[at]!.id !== turn.id) at -= 1;
  const next = at === -1 ? appended(current, turn) : replacedAt(current, at, turn);
  queryClient.setQueryData(apiKeys.localTurns(taskId), next);
  await writeChunks(taskId, next, at === -1 ? next.length - 1 : at);
}
