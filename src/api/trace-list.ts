/**
 * `GET /v1/messaging/tasks/{task_id}/trace-info`: every trace of a thread, in thread order.
 * Asks for the first page; a spec server ignores the paging parameters and answers a bare array,
 * the deployed service answers a page envelope, whose further pages are followed.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TraceListIn } from '../contract/api';
import type { TolerantTrace } from '../contract/trace';
import { apiRequest } from './client';
import { apiKeys } from './keys';

export const TRACE_PAGE_SIZE = 100;
/** A guard against a server that keeps announcing more pages. */
const MAX_PAGES = 1000;

export async function getTraceList(taskId: string, signal?: AbortSignal): Promise<TolerantTrace[]> {
  const path = `/v1/messaging/tasks/${encodeURIComponent(taskId)}/trace-info`;
  const first = await apiRequest({
    path,
    query: { page: 1, size: TRACE_PAGE_SIZE },
    schema: TraceListIn,
    what: 'trace list',
    signal,
  });
  const items = [...first.items];
  const pages = Math.min(first.pages, MAX_PAGES);
  for (let page = first.page + 1; page <= pages; page += 1) {
    const next = await apiRequest({
      path,
      query: { page, size: TRACE_PAGE_SIZE },
      schema: TraceListIn,
      what: 'trace list',
      signal,
    });
    if (next.items.length === 0) break;
    items.push(...next.items);
  }
  return items;
}

export const traceListQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: apiKeys.traces(taskId),
    queryFn: ({ signal }) => getTraceList(taskId, signal),
    staleTime: 30_000,
  });

export function useTraceList(taskId: string | undefined, enabled = true) {
  return useQuery({ ...traceListQueryOptions(taskId ?? ''), enabled: enabled && Boolean(taskId) });
}
