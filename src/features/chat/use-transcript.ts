/** The transcript of one thread: the server's traces merged with this browser's records. */
import { useMemo } from 'react';
import { useTraceList } from '../../api/trace-list';
import { useLocalTurns } from '../threads/local-turns';
import { buildTranscript, type Turn } from './transcript';

export interface TranscriptState {
  turns: Turn[];
  isLoading: boolean;
  error: unknown;
  refetch: () => void;
}

export function useTranscript(taskId: string | undefined): TranscriptState {
  const traces = useTraceList(taskId);
  const local = useLocalTurns(taskId);
  const turns = useMemo(() => buildTranscript(traces.data, local.data), [traces.data, local.data]);
  const { refetch } = traces;
  return {
    turns,
    isLoading: traces.isPending && Boolean(taskId),
    error: traces.error,
    refetch: () => void refetch(),
  };
}
