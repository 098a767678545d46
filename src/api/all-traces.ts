/**
 * Every trace of a thread at once, page by page (for what needs the whole thread: a share, a
 * saved test case's conversation); apart from trace-list.ts so that only those load it.
 */
import type { TolerantTrace } from '../contract/trace';
import { boundedMap } from '../lib/bounded-map';
import { firstTracePage, getTracePage, pageError } from './trace-list';

/** A guard against a server that keeps announcing more pages. */
const MAX_PAGES = 1000;
/** Further pages are fetched this many at a time. */
const TRACE_PAGES_IN_FLIGHT = 4;

/** Every trace of a thread, in order. A page that fails fails the list, naming the page. */
export async function getAllTraces(taskId: string, signal?: AbortSignal): Promise<TolerantTrace[]> {
  const { first, size } = await firstTracePage(taskId, signal);
  const pages = Math.min(first.pages, MAX_PAGES);
  const rest = await boundedMap(
    Math.max(0, pages - first.page),
    TRACE_PAGES_IN_FLIGHT,
    (i, signal) =>
      getTracePage(taskId, first.page + 1 + i, size, signal).catch((error: unknown) => {
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
