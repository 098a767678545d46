/**
 * `GET /v1/messaging/tasks/{task_id}/trace-info`: a thread's traces, in thread order. A thread
 * opens on its newest page: the first page says how many there are (or, when its length is
 * known, the page it should end on is asked for at once and its count checked), the last one
 * (and the one before it when the last is short) is what is kept (trace-window.ts); older pages
 * are fetched as the reader scrolls to them (domain/transcript/trace-pages.ts), and a refetch
 * keeps the earlier turns a reader moved back to (`refreshedWindow`). A spec server ignores the
 * paging parameters and answers a bare array: everything is kept at once. A page that fails is
 * named with the turns it holds, never left as a silent hole.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TraceListIn } from '../contract/api';
import type { TolerantTrace } from '../contract/trace';
import {
  SHORT_LAST_PAGE,
  pageWindow,
  refreshedWindow,
  wholeWindow,
  withPage,
  type TraceWindow,
} from './trace-window';
import { apiRequest } from './client';
import { ApiError, toApiError } from './errors';
import { apiKeys } from './keys';
import { listedLength } from './task-list';

/**
 * Traces asked for per page (a page is what one scroll step to older turns loads); a service that
 * refuses the size (400 or 422 on the first page) is asked again with the smaller one.
 */
const TRACE_PAGE_SIZE = 500;
const FALLBACK_PAGE_SIZE = 100;

/** A page that did not load, named with the turns it holds (numbered from 1). */
export function pageError(error: unknown, page: number, pages: number, pageSize: number): ApiError {
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

function tracePath(taskId: string): string {
  return `/v1/messaging/tasks/${encodeURIComponent(taskId)}/trace-info`;
}

/** Page `page` (from 1) of a thread's traces in pages of `size`. */
export function getTracePage(taskId: string, page: number, size: number, signal?: AbortSignal) {
  return apiRequest({
    path: tracePath(taskId),
    query: { page, size },
    schema: TraceListIn,
    what: 'trace list',
    signal,
  });
}

type PageAnswer = Awaited<ReturnType<typeof getTracePage>>;

/** Whether a page was refused for its size (a validation error), not for anything else. */
function sizeRefused(error: unknown, signal: AbortSignal | undefined): boolean {
  const status = toApiError(error).status;
  return !signal?.aborted && (status === 400 || status === 422);
}

/** A thread's first trace page, asked at the usual size, or at the fallback size when a server refuses it. */
export async function firstTracePage(
  taskId: string,
  signal?: AbortSignal,
): Promise<{ first: PageAnswer; size: number }> {
  try {
    return { first: await getTracePage(taskId, 1, TRACE_PAGE_SIZE, signal), size: TRACE_PAGE_SIZE };
  } catch (error) {
    if (!sizeRefused(error, signal)) throw error;
    return { first: await getTracePage(taskId, 1, FALLBACK_PAGE_SIZE, signal), size: FALLBACK_PAGE_SIZE };
  }
}

/**
 * The window of a thread's newest page given an answer for page `asked` (which may be it): the
 * newest page (the answer itself when it is the one), and the one before it when the newest is short.
 */
async function newestFrom(
  taskId: string,
  asked: number,
  answer: PageAnswer,
  pageSize: number,
  size: number,
  signal: AbortSignal | undefined,
): Promise<TraceWindow> {
  const pages = answer.pages;
  const page = (n: number) =>
    n === asked
      ? Promise.resolve(answer)
      : getTracePage(taskId, n, size, signal).catch((error: unknown) => {
          throw signal?.aborted ? error : pageError(error, n, pages, pageSize);
        });
  const last = await page(pages);
  // The exact count: the full pages before the last, and the last.
  const total = (pages - 1) * pageSize + last.items.length;
  const w = pageWindow(total, pageSize, pages, last.items);
  if (last.items.length >= SHORT_LAST_PAGE || pages === 1) return w;
  return withPage(pageWindow(total, pageSize, pages - 1, (await page(pages - 1)).items), pages, last.items);
}

/**
 * The newest page asked for directly, from a length the thread is known to have had (`known`
 * turns: the page of 500 it ended on then): one request when the thread still ends on that page.
 * When it grew or shrank, the answer's count says where it ends now, and that page is asked
 * for. Undefined when the answer cannot be read as pages of that size (a server that refuses
 * or caps the size, or answers the whole list): the thread is then read from its first page.
 */
async function newestByLength(
  taskId: string,
  known: number,
  signal: AbortSignal | undefined,
): Promise<TraceWindow | undefined> {
  const expected = Math.ceil(known / TRACE_PAGE_SIZE);
  let answer: PageAnswer;
  try {
    answer = await getTracePage(taskId, expected, TRACE_PAGE_SIZE, signal);
  } catch (error) {
    if (sizeRefused(error, signal)) return undefined;
    throw error;
  }
  // The whole list (a server without paging), or a thread of one page now: read as such.
  if (answer.pages <= 1) return answer.items.length > 0 ? wholeWindow(answer.items) : undefined;
  if (answer.pages !== Math.ceil(answer.total / TRACE_PAGE_SIZE)) return undefined;
  return newestFrom(taskId, expected, answer, TRACE_PAGE_SIZE, TRACE_PAGE_SIZE, signal);
}

/**
 * A thread's newest traces: its newest page (two when the newest is short), or all of them from a
 * server without paging. `known`: the thread's length when last seen, if known (then its newest
 * page is asked for first; see `newestByLength`).
 */
export async function getTraceWindow(taskId: string, signal?: AbortSignal, known = 0): Promise<TraceWindow> {
  if (known > TRACE_PAGE_SIZE) {
    const w = await newestByLength(taskId, known, signal);
    if (w) return w;
  }
  const { first, size } = await firstTracePage(taskId, signal);
  // A bare array (or a single page): everything is here.
  if (first.pages <= 1 || first.items.length === 0) return wholeWindow(first.items);
  // The page size the server used (it may cap the one asked for).
  return newestFrom(taskId, 1, first, first.items.length, size, signal);
}

/** The whole thread's traces when the window holds them all, else undefined. */
export function wholeThread(w: TraceWindow | undefined): readonly TolerantTrace[] | undefined {
  return w && w.start === 0 && w.items.length >= w.total ? w.items : undefined;
}

export const traceListQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: apiKeys.traces(taskId),
    // Read again (a refetch): a reader who moved back to earlier turns keeps them. The thread's
    // length as last seen (the window held, else the thread list) points at its newest page.
    queryFn: async ({ signal, client, queryKey }) => {
      const held = client.getQueryData<TraceWindow>(queryKey);
      const known = held?.total ?? listedLength(client, taskId);
      return refreshedWindow(held, await getTraceWindow(taskId, signal, known));
    },
    staleTime: 30_000,
    // A window is replaced as a whole (a send changes its items by one recorded change).
    structuralSharing: false,
  });

export function useTraceList(taskId: string | undefined, enabled = true) {
  return useQuery({ ...traceListQueryOptions(taskId ?? ''), enabled: enabled && Boolean(taskId) });
}
