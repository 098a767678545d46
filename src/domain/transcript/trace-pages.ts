/**
 * Fetching the pages of a thread's traces that the reader scrolls to: the turns in view name the
 * pages they need (trace-window.ts `pagesNeeded`), which are fetched one at a time per thread,
 * nearest to the held run first, and put into the cached window. A page that fails is kept as
 * failed (its turns say so) until asked for again. Framework-free apart from the query client.
 */
import type { QueryClient } from '@tanstack/react-query';
import { apiKeys } from '../../api/keys';
import { getTracePage, pageError } from '../../api/trace-list';
import {
  pageCount,
  pageOf,
  pagesNeeded,
  withFailedPage,
  withPage,
  type TraceWindow,
} from '../../api/trace-window';

interface Wanted {
  from: number;
  to: number;
  retry: boolean;
}

/** Per query client and thread: the turns last asked for, and the fetch under way. */
const state = new WeakMap<QueryClient, Map<string, { wanted: Wanted; running?: Promise<void> }>>();

function threads(queryClient: QueryClient) {
  let m = state.get(queryClient);
  if (!m) state.set(queryClient, (m = new Map()));
  return m;
}

/**
 * Asks for thread positions `[from, to)` (what is in view): the pages they need that are not
 * held are fetched, one at a time. Only the last range asked for counts (a reader scrolling past
 * pages does not fetch every page on the way). `retry`: pages that failed are asked for again.
 */
export function loadTurns(
  queryClient: QueryClient,
  taskId: string,
  from: number,
  to: number,
  retry = false,
): Promise<void> {
  const key = apiKeys.traces(taskId);
  const byTask = threads(queryClient);
  const entry = byTask.get(taskId) ?? { wanted: { from, to, retry } };
  entry.wanted = { from, to, retry: retry || (entry.running !== undefined && entry.wanted.retry) };
  byTask.set(taskId, entry);
  if (entry.running) return entry.running;
  const run = async () => {
    for (;;) {
      const w = queryClient.getQueryData<TraceWindow>(key);
      const { wanted } = entry;
      if (!w) return;
      const page = pagesNeeded(w, wanted.from, wanted.to).find((p) => wanted.retry || !w.failed.has(p));
      if (page === undefined) return;
      try {
        const got = await getTracePage(taskId, page, w.pageSize);
        if (entry.wanted === wanted) entry.wanted = { ...wanted, retry: false };
        queryClient.setQueryData<TraceWindow>(key, (now) =>
          now && now.pageSize === w.pageSize ? withPage(now, page, got.items) : now,
        );
      } catch (error) {
        if (entry.wanted === wanted) entry.wanted = { ...wanted, retry: false };
        const failed = pageError(error, page, pageCount(w), w.pageSize);
        queryClient.setQueryData<TraceWindow>(key, (now) => (now ? withFailedPage(now, page, failed) : now));
      }
    }
  };
  entry.running = run().finally(() => {
    entry.running = undefined;
  });
  return entry.running;
}

/** Threads whose pages are being searched for a turn (by query client). */
const finding = new WeakMap<QueryClient, Map<string, Promise<boolean>>>();

/**
 * Brings the page holding turn `turnId` into the window (a link to an old turn of a long thread):
 * the pages before the held run are read newest first, one at a time, until one holds it.
 * Bounded by the thread's page count; true when found.
 */
export function findTurn(queryClient: QueryClient, taskId: string, turnId: string): Promise<boolean> {
  let byTask = finding.get(queryClient);
  if (!byTask) finding.set(queryClient, (byTask = new Map()));
  const key = `${taskId}\n${turnId}`;
  const running = byTask.get(key);
  if (running) return running;
  const search = (async () => {
    const w = queryClient.getQueryData<TraceWindow>(apiKeys.traces(taskId));
    if (!w || w.pageSize === 0 || w.items.some((t) => t.interaction_id === turnId)) return false;
    for (let page = pageOf(w, w.start) - 1; page >= 1; page -= 1) {
      const got = await getTracePage(taskId, page, w.pageSize);
      if (got.items.some((t) => t.interaction_id === turnId)) {
        queryClient.setQueryData<TraceWindow>(apiKeys.traces(taskId), (now) =>
          now && now.pageSize === w.pageSize ? withPage(now, page, got.items) : now,
        );
        return true;
      }
    }
    return false;
  })();
  byTask.set(key, search);
  void search.catch(() => false).finally(() => byTask.delete(key));
  return search;
}
