/**
 * One thread's whole transcript read once, outside React (what saving a turn as a test case
 * needs); apart from use-transcript.ts so that only what uses it loads it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { getAllTraces } from '../../api/all-traces';
import { taskInfoQueryOptions, turnRunsQueryOptions, type TaskInfoIn } from '../../api/lineage';
import { traceListQueryOptions, wholeThread } from '../../api/trace-list';
import { wholeWindow } from '../../api/trace-window';
import { boundedMap } from '../../lib/bounded-map';
import { localTurnsQueryOptions } from '../threads/local-turns';
import type { Turn } from './transcript';
import { TranscriptModel, type RunPages } from './transcript-model';

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
