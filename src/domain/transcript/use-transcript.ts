/**
 * The transcript of one thread: the server's traces merged with this browser's records and, when
 * the server keeps them (the reference service), what each turn ran with. Every panel asking for
 * the same thread shares one model (transcript-model.ts), so a send builds one turn, once.
 */
import { useQueries, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { taskInfoQueryOptions, turnRunsQueryOptions, type TaskInfoIn } from '../../api/lineage';
import { getAllTraces, traceListQueryOptions, useTraceList, wholeThread } from '../../api/trace-list';
import { useKeyReady } from '../connection/use-key-ready';
import { localTurnsQueryOptions, useLocalTurns } from '../threads/local-turns';
import type { Turn } from './transcript';
import { TranscriptModel, transcriptModelFor, type RunPages } from './transcript-model';
import { boundedMap } from '../../lib/bounded-map';
import { loadTurns } from './trace-pages';
import { heldPages, wholeWindow, type TraceWindow } from '../../api/trace-window';

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
  const runs = useQueries({
    queries: (w && taskId && keyReady ? heldPages(w) : []).map((page) =>
      turnRunsQueryOptions(taskId!, page, w!.pageSize),
    ),
    combine: (results) => results.map((r) => r.data),
  });
  // Derived state, memoised by the model on the identity of its three sources (no work when
  // they are unchanged; one turn's work when a send appended one).
  const turns = transcriptModelFor(queryClient, taskId ?? '').sync(w, local.data, runs);
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

/**
 * One thread's whole transcript read once, outside React (what saving a turn as a test case
 * needs: the conversation before it): the same three sources as `useTranscript`, every trace of
 * the thread (the held window when it holds them all, else fetched page by page). `info` is what
 * the service keeps about the task (null when it keeps nothing).
 */
export async function readTranscript(
  queryClient: QueryClient,
  taskId: string,
): Promise<{ turns: readonly Turn[]; info: TaskInfoIn | null }> {
  const [held, local, info] = await Promise.all([
    queryClient.fetchQuery(traceListQueryOptions(taskId)),
    queryClient.fetchQuery(localTurnsQueryOptions(taskId)),
    queryClient.fetchQuery(taskInfoQueryOptions(taskId)),
  ]);
  const traces = wholeThread(held) ? held : wholeWindow(await getAllTraces(taskId));
  const runs = await allRuns(queryClient, taskId, traces.items.length);
  return { turns: new TranscriptModel().sync(traces, local, runs), info };
}

/** Pages of turn runs asked at once for a whole thread (the service's largest page). */
const RUNS_PAGE_SIZE = 1000;

/** What every turn of a thread of `total` turns ran with, page by page, a few pages at a time. */
function allRuns(queryClient: QueryClient, taskId: string, total: number): Promise<RunPages> {
  return boundedMap(Math.ceil(total / RUNS_PAGE_SIZE), 4, (i) =>
    queryClient.fetchQuery(turnRunsQueryOptions(taskId, i + 1, RUNS_PAGE_SIZE)),
  );
}
