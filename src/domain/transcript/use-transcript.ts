/**
 * The transcript of one thread: the server's traces merged with this browser's records and, when
 * the server keeps them (the reference service), what each turn ran with. Every panel asking for
 * the same thread shares one model (transcript-model.ts), so a send builds one turn, once.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { taskInfoQueryOptions, type TaskInfoIn } from '../../api/lineage';
import { traceListQueryOptions, useTraceList } from '../../api/trace-list';
import { useKeyReady } from '../connection/use-key-ready';
import { localTurnsQueryOptions, useLocalTurns } from '../threads/local-turns';
import type { Turn } from './transcript';
import { transcriptModelFor } from './transcript-model';

export interface TranscriptState {
  turns: readonly Turn[];
  isLoading: boolean;
  /** True once the server's turns are in (false without a key, while loading, after an error). */
  isLoaded: boolean;
  error: unknown;
  refetch: () => void;
}

export function useTranscript(taskId: string | undefined): TranscriptState {
  const keyReady = useKeyReady();
  const queryClient = useQueryClient();
  const traces = useTraceList(taskId, keyReady);
  const local = useLocalTurns(taskId);
  const info = useQuery({ ...taskInfoQueryOptions(taskId ?? ''), enabled: Boolean(taskId) && keyReady });
  // Derived state, memoised by the model on the identity of its three sources (no work when
  // they are unchanged; one turn's work when a send appended one).
  const turns = transcriptModelFor(queryClient, taskId ?? '').sync(traces.data, local.data, info.data);
  const { refetch } = traces;
  return {
    turns,
    isLoading: traces.isPending && traces.fetchStatus !== 'idle' && Boolean(taskId),
    isLoaded: traces.isSuccess,
    error: traces.error,
    refetch: () => void refetch(),
  };
}

/**
 * One thread's transcript read once, outside React (what a view that acts on many threads at once
 * needs): the same three sources and the same shared model as `useTranscript`, fetched when the
 * cache does not hold them. `info` is what the service keeps about the task (null when it keeps
 * nothing).
 */
export async function readTranscript(
  queryClient: QueryClient,
  taskId: string,
): Promise<{ turns: readonly Turn[]; info: TaskInfoIn | null }> {
  const [traces, local, info] = await Promise.all([
    queryClient.fetchQuery(traceListQueryOptions(taskId)),
    queryClient.fetchQuery(localTurnsQueryOptions(taskId)),
    queryClient.fetchQuery(taskInfoQueryOptions(taskId)),
  ]);
  return { turns: transcriptModelFor(queryClient, taskId).sync(traces, local, info), info };
}
