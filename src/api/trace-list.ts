/**
 * `GET /v1/messaging/tasks/{task_id}/trace-info`: every trace of a thread, in thread order.
 * Asks for the first page; a spec server ignores the paging parameters and answers a bare array,
 * the deployed service (and the reference one) a page envelope, whose further pages are fetched
 * a few at a time and put together in order. A page that fails fails the list, naming the page.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TraceListIn } from '../contract/api';
import type { TolerantTrace } from '../contract/trace';
import { boundedMap } from '../lib/bounded-map';
import { apiRequest } from './client';
import { ApiError, toApiError } from './errors';
import { keepRecordedChanges } from './structural-sharing';
import { apiKeys } from './keys';

/**
 * Traces asked for per page. Fewer, larger pages load a long thread faster (10,000 turns: 20
 * pages of 500 open in about 0.6 s where 100 pages of 100 took 0.95 s, bench/RESULTS.md); a
 * service that refuses the size (400 or 422 on the first page) is asked again with the smaller one.
 */
const TRACE_PAGE_SIZE = 500;
const FALLBACK_PAGE_SIZE = 100;
/** A guard against a server that keeps announcing more pages. */
const MAX_PAGES = 1000;
/** Further pages are fetched this many at a time (a 10,000-turn thread: 20 pages). */
const TRACE_PAGES_IN_FLIGHT = 4;

/**
 * A page that did not load, named with the turns it holds: the thread is not shown with a hole
 * in it, the error says which part is missing.
 */
function pageError(error: unknown, page: number, pages: number, pageSize: number): ApiError {
  const e = toApiError(error);
  const first = (page - 1) * pageSize + 1;
  return new ApiError({
    kind: e.kind,
    status: e.status,
    title: `Page ${page} of ${pages} of this thread's traces did not load (turns ${first}–${first + pageSize - 1})`,
    message: e.message,
    guidance: e.guidance,
    ...(e.detail !== undefined ? { detail: e.detail } : {}),
  });
}

export async function getTraceList(taskId: string, signal?: AbortSignal): Promise<TolerantTrace[]> {
  const path = `/v1/messaging/tasks/${encodeURIComponent(taskId)}/trace-info`;
  let size = TRACE_PAGE_SIZE;
  const page = (n: number, signal?: AbortSignal) =>
    apiRequest({
      path,
      query: { page: n, size },
      schema: TraceListIn,
      what: 'trace list',
      signal,
    });
  const first = await page(1, signal).catch((error: unknown) => {
    const status = toApiError(error).status;
    // A refused size is a validation error; anything else is not the size's fault.
    if (signal?.aborted || (status !== 400 && status !== 422)) throw error;
    size = FALLBACK_PAGE_SIZE;
    return page(1, signal);
  });
  const pages = Math.min(first.pages, MAX_PAGES);
  // Pages first.page+1 … pages, a few at a time, kept in order.
  const rest = await boundedMap(
    Math.max(0, pages - first.page),
    TRACE_PAGES_IN_FLIGHT,
    (i, signal) =>
      page(first.page + 1 + i, signal).catch((error: unknown) => {
        throw signal.aborted ? error : pageError(error, first.page + 1 + i, pages, first.items.length);
      }),
    signal,
  );
  const items = [...first.items];
  for (const next of rest) {
    // A server announcing more pages than it holds: the list ends at its first empty page.
    if (next.items.length === 0) break;
    for (const item of next.items) items.push(item);
  }
  return items;
}

export const traceListQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: apiKeys.traces(taskId),
    queryFn: ({ signal }) => getTraceList(taskId, signal),
    staleTime: 30_000,
    // A send appends one trace: kept as is, no deep comparison of the whole list.
    structuralSharing: keepRecordedChanges,
  });

export function useTraceList(taskId: string | undefined, enabled = true) {
  return useQuery({ ...traceListQueryOptions(taskId ?? ''), enabled: enabled && Boolean(taskId) });
}
