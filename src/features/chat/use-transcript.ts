/** The transcript of one thread: the server's traces merged with this browser's records. */
import { useMemo } from 'react';
import { useTraceList } from '../../api/trace-list';
import { useKeyReady } from '../connection';
import { useLocalTurns } from '../threads';
import { buildTranscript, type Turn } from './transcript';

export interface TranscriptState {
  turns: Turn[];
  isLoading: boolean;
  error: unknown;
  refetch: () => void;
}

export function useTranscript(taskId: string | undefined): TranscriptState {
  const keyReady = useKeyReady();
  const traces = useTraceList(taskId, keyReady);
  const local = useLocalTurns(taskId);
  const turns = useMemo(() => buildTranscript(traces.data, local.data), [traces.data, local.data]);
  const { refetch } = traces;
  return {
    turns,
    isLoading: traces.isPending && traces.fetchStatus !== 'idle' && Boolean(taskId),
    error: traces.error,
    refetch: () => void refetch(),
  };
}
