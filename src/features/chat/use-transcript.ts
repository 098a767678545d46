/**
 * The transcript of one thread: the server's traces merged with this browser's records and, when
 * the server keeps them (the reference service), what each turn ran with.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { taskInfoQueryOptions } from '../../api/lineage';
import { useTraceList } from '../../api/trace-list';
import { useKeyReady } from '../connection';
import { useLocalTurns } from '../threads';
import { buildTranscript, reuseTurns, type Turn, type TurnRun } from './transcript';

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
  // Derived state: rebuilt when the traces, the local records or the runs change, keeping the
  // previous transcript's Turn objects where nothing changed (so memoised turn views skip re-rendering).
  const [built, setBuilt] = useState(() => ({
    traces: traces.data,
    local: local.data,
    runs,
    turns: buildTranscript(traces.data, local.data, runs),
  }));
  let turns = built.turns;
  if (built.traces !== traces.data || built.local !== local.data || built.runs !== runs) {
    turns = reuseTurns(built.turns, buildTranscript(traces.data, local.data, runs));
    setBuilt({ traces: traces.data, local: local.data, runs, turns });
  }
  const { refetch } = traces;
  return {
    turns,
    isLoading: traces.isPending && traces.fetchStatus !== 'idle' && Boolean(taskId),
    isLoaded: traces.isSuccess,
    error: traces.error,
    refetch: () => void refetch(),
  };
}
