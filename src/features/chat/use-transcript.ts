/**
 * The transcript of one thread: the server's traces merged with this browser's records and, when
 * the server keeps them (the reference service), what each turn ran with.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { taskInfoQueryOptions } from '../../api/lineage';
import { useTraceList } from '../../api/trace-list';
import { useKeyReady } from '../connection';
import { useLocalTurns } from '../threads';
import { buildTranscript, type Turn, type TurnRun } from './transcript';

export interface TranscriptState {
  turns: Turn[];
  isLoading: boolean;
  /** True once the server's turns are in (false without a key, while loading, after an error). */
  isLoaded: boolean;
  error: unknown;
  refetch: () => void;
}

export function useTranscript(taskId: string | undefined): TranscriptState {
  const keyReady = useKeyReady();
  const traces = useTraceList(taskId, keyReady);
  const local = useLocalTurns(taskId);
  const info = useQuery({ ...taskInfoQueryOptions(taskId ?? ''), enabled: Boolean(taskId) && keyReady });
  // A turn sent a moment ago may be newer than the server's answer: its local record counts until then.
  const runs = useMemo(
    () =>
      info.data ? new Map<string, TurnRun>(info.data.turns.map((t) => [t.interaction_id, t])) : undefined,
    [info.data],
  );
  const turns = useMemo(
    () => buildTranscript(traces.data, local.data, runs),
    [traces.data, local.data, runs],
  );
  const { refetch } = traces;
  return {
    turns,
    isLoading: traces.isPending && traces.fetchStatus !== 'idle' && Boolean(taskId),
    isLoaded: traces.isSuccess,
    error: traces.error,
    refetch: () => void refetch(),
  };
}
