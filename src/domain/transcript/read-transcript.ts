/**
 * One thread's whole transcript read once, outside React (what saving a turn as a test case
 * needs); apart from use-transcript.ts so that only what uses it loads it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { getAllTraces } from '../../api/all-traces';
import { taskInfoQueryOptions, turnRunsQueryOptions, type TaskInfoIn } from '../../api/lineage';
import { traceListQueryOptions, wholeThread } from '../../api/trace-list';
import { heldPages, wholeWindow } from '../../api/trace-window';
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
  // What every turn ran with, a few pages at a time.
  const { pages, size } = heldPages(traces);
  const runs: RunPages = await boundedMap(pages.length, 4, (i) =>
    queryClient.fetchQuery(turnRunsQueryOptions(taskId, pages[i]!, size)),
  );
  return { turns: new TranscriptModel().sync(traces, local, runs), info };
}
