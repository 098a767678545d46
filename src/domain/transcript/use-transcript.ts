/**
 * The transcript of one thread: the server's traces merged with this browser's records and, when
 * the server keeps them (the reference service), what each turn ran with. Every panel asking for
 * the same thread shares one model (transcript-model.ts), so a send builds one turn, once.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { heldRunsQueryOptions } from '../../api/lineage';
import { useTraceList } from '../../api/trace-list';
import { useKeyReady } from '../connection/use-key-ready';
import { useLocalTurns } from '../threads/local-turns';
import type { Turn } from './transcript';
import { transcriptModelFor } from './transcript-model';
import { loadTurns } from './trace-pages';
import { heldPages, type TraceWindow } from '../../api/trace-window';

export interface TranscriptState {
  /** The turns held (a window of a long thread), each with its thread position as `index`. */
  turns: readonly Turn[];
  /**
   * Turns in the thread (held or not; at least `turns.length`): positions without a held turn
   * are shown as not loaded and fetched with `loadTurns` when in view.
   */
  total: number;
  /** Thread position of `turns[0]`. */
  start: number;
  /** The held traces (undefined until the first page is in). */
  window: TraceWindow | undefined;
  /** Asks for thread positions `[from, to)` (the rows in view); `retry` asks again for failed pages. */
  loadTurns: (from: number, to: number, retry?: boolean) => void;
  isLoading: boolean;
  /** True once the server's turns are in (false without a key, while loading, after an error). */
  isLoaded: boolean;
  error: unknown;
  refetch: () => void;
}

/** Which part of a long thread a view's `turns` are, and how to ask for more (absent: the whole thread). */
export type TranscriptPart = Pick<TranscriptState, 'total' | 'start' | 'window' | 'loadTurns'>;

export function useTranscript(taskId: string | undefined): TranscriptState {
  const keyReady = useKeyReady();
  const queryClient = useQueryClient();
  const traces = useTraceList(taskId, keyReady);
  const local = useLocalTurns(taskId);
  const w = traces.data;
  // What the held pages' turns ran with: the same pages of the service's turn runs.
  const { pages, size } = w && keyReady ? heldPages(w) : { pages: [], size: 0 };
  const runs = useQuery({
    ...heldRunsQueryOptions(taskId ?? '', pages, size),
    enabled: Boolean(taskId) && pages.length > 0,
  });
  // Derived state, memoised by the model on the identity of its three sources (no work when
  // they are unchanged; one turn's work when a send appended one).
  const turns = transcriptModelFor(queryClient, taskId ?? '').sync(w, local.data, runs.data);
  const { refetch } = traces;
  const load = useCallback(
    (from: number, to: number, retry?: boolean) =>
      void loadTurns(queryClient, taskId ?? '', from, to, retry).catch(() => {}),
    [queryClient, taskId],
  );
  return {
    turns,
    total: Math.max(turns.length + (w?.start ?? 0), w ? w.total : 0),
    start: w?.start ?? 0,
    window: w,
    loadTurns: load,
    isLoading: traces.isPending && traces.fetchStatus !== 'idle' && Boolean(taskId),
    isLoaded: traces.isSuccess,
    error: traces.error,
    refetch: () => void refetch(),
  };
}
