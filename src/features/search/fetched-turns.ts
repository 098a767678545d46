/**
 * The turns this browser has fetched, searched where the service offers no turn search: each
 * thread of this browser's list (newest first) and each thread whose traces are in the query
 * cache (one opened from a link), read from the traces already fetched and this browser's own
 * records of what it sent, never asking the service for more. Bounded: at most MAX_THREADS
 * threads and MAX_TURNS turns are read.
 */
import type { QueryClient } from '@tanstack/react-query';
import { apiKeys } from '../../api/keys';
import { windowEnd, type TraceWindow } from '../../api/trace-window';
import { buildTranscript } from '../../domain/transcript/transcript';
import { localTurnsQueryOptions } from '../../domain/threads/local-turns';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { fetchedTurnOf, type FetchedTurn } from './fetched-search';

export const MAX_THREADS = 500;
export const MAX_TURNS = 20_000;

export interface FetchedTurns {
  turns: FetchedTurn[];
  /** Threads read. */
  threads: number;
  /** True when threads or turns were left out (beyond the bounds). */
  capped: boolean;
}

/** Task ids whose traces the query cache holds. */
function cachedTaskIds(queryClient: QueryClient): string[] {
  const tasks = apiKeys.tasks();
  const ids: string[] = [];
  for (const q of queryClient.getQueryCache().findAll({ queryKey: tasks })) {
    const key = q.queryKey;
    if (key.length === tasks.length + 2 && key[tasks.length + 1] === 'traces' && q.state.data)
      ids.push(String(key[tasks.length]));
  }
  return ids;
}

export async function readFetchedTurns(queryClient: QueryClient): Promise<FetchedTurns> {
  const { threads: records, order } = useThreadsStore.getState();
  const ids = [...new Set([...order, ...cachedTaskIds(queryClient)])];
  const out: FetchedTurns = { turns: [], threads: 0, capped: ids.length > MAX_THREADS };
  for (const taskId of ids.slice(0, MAX_THREADS)) {
    if (out.turns.length >= MAX_TURNS) {
      out.capped = true;
      break;
    }
    const thread = records.get(taskId);
    // The traces held of the thread (a long thread's window: the turns fetched).
    const traces = queryClient.getQueryData<TraceWindow>(apiKeys.traces(taskId));
    const local = await queryClient.fetchQuery(localTurnsQueryOptions(taskId));
    const turns = buildTranscript(traces?.items, local, undefined, {
      start: traces?.start ?? 0,
      atEnd: !traces || windowEnd(traces) >= traces.total,
    });
    out.threads += 1;
    for (const t of turns) {
      if (out.turns.length >= MAX_TURNS) {
        out.capped = true;
        break;
      }
      if (t.idUnknown) continue;
      out.turns.push(
        fetchedTurnOf({
          taskId,
          agentId: thread?.agent_id ?? '',
          userId: thread?.user_id ?? '',
          turn: t.index + 1,
          interactionId: t.id,
          message: t.userText,
          reply: t.replyText,
          decision: t.decision,
          createdAt: t.createdAt ?? '',
          versionId: t.versionId ?? thread?.version_id ?? '',
          bundleHash: t.bundleHash ?? null,
          trace: t.trace,
        }),
      );
    }
  }
  return out;
}
