/**
 * The transcript of one thread: the server's traces merged with this browser's records and, when
 * the server keeps them (the reference service), what each turn ran with. Every panel asking for
 * the same thread shares one model (transcript-model.ts), so a send builds one turn, once.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { taskInfoQueryOptions } from '../../api/lineage';
import { useTraceList } from '../../api/trace-list';
import { useKeyReady } from '../connection';
import { useLocalTurns } from '../threads';
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
