/** The transcript of one thread: the server's traces merged with this browser's records. */
import { useState } from 'react';
import { useTraceList } from '../../api/trace-list';
import { useKeyReady } from '../connection';
import { useLocalTurns } from '../threads';
import { buildTranscript, reuseTurns, type Turn } from './transcript';

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
  // Derived state: rebuilt when the traces or the local records change, keeping the previous
  // transcript's Turn objects where nothing changed (so memoised turn views skip re-rendering).
  const [built, setBuilt] = useState(() => ({
    traces: traces.data,
    local: local.data,
    turns: buildTranscript(traces.data, local.data),
  }));
  let turns = built.turns;
  if (built.traces !== traces.data || built.local !== local.data) {
    turns = reuseTurns(built.turns, buildTranscript(traces.data, local.data));
    setBuilt({ traces: traces.data, local: local.data, turns });
  }
  const { refetch } = traces;
  return {
    turns,
    isLoading: traces.isPending && traces.fetchStatus !== 'idle' && Boolean(taskId),
    error: traces.error,
    refetch: () => void refetch(),
  };
}
