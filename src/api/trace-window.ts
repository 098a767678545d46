/**
 * The part of a thread's traces held in memory: a contiguous run of the service's pages (turns
 * `start … start + items.length` of `total`), so a thread of any length costs what a few pages
 * cost. A thread opens on its newest page; a page the reader scrolls to is fetched and joined to
 * the run when it touches it (the run then drops its pages farthest from the new one beyond
 * `MAX_HELD_PAGES`), or replaces the run when it does not. A service that answers the whole list
 * at once (no paging) gives a window holding every turn (`pageSize` 0), which never loads more.
 * A send appends one trace: the held items grow by one only when the run reaches the end, else
 * only the count grows. Pure: no React, no I/O.
 */
import type { TolerantTrace } from '../contract/trace';
import type { ApiError } from './errors';
import { appended, replacedAt } from '../lib/array-change';

export interface TraceWindow {
  /** Turns in the thread (the service's count, plus what this browser appended since). */
  total: number;
  /** Traces per page of the service; 0 when it answered the whole list at once. */
  pageSize: number;
  /** Thread position (from 0) of `items[0]`: a page boundary. */
  start: number;
  items: readonly TolerantTrace[];
  /** Pages that did not load, by page number (from 1): their turns are named as missing. */
  failed: ReadonlyMap<number, ApiError>;
}

/** Pages held at most (a page of 500 turns: 3,000 turns). */
export const MAX_HELD_PAGES = 6;

/** A page that ends the list with fewer traces than this is shown with the page before it. */
export const SHORT_LAST_PAGE = 50;

const NO_FAILURES: ReadonlyMap<number, ApiError> = new Map();

/** Every trace at once (a service without paging). */
export function wholeWindow(items: readonly TolerantTrace[]): TraceWindow {
  return { total: items.length, pageSize: 0, start: 0, items, failed: NO_FAILURES };
}

/** The window made of one page `page` (from 1) of `total` turns in pages of `pageSize`. */
export function pageWindow(
  total: number,
  pageSize: number,
  page: number,
  items: readonly TolerantTrace[],
): TraceWindow {
  return {
    total: Math.max(total, (page - 1) * pageSize + items.length),
    pageSize,
    start: (page - 1) * pageSize,
    items,
    failed: NO_FAILURES,
  };
}

export function windowEnd(w: TraceWindow): number {
  return w.start + w.items.length;
}

/** Pages of the thread (0 for an empty one; 1 for a window without paging). */
export function pageCount(w: TraceWindow): number {
  return w.pageSize === 0 ? (w.total > 0 ? 1 : 0) : Math.ceil(w.total / w.pageSize);
}

/** The page (from 1) holding thread position `index` (from 0). */
export function pageOf(w: TraceWindow, index: number): number {
  return w.pageSize === 0 ? 1 : Math.floor(index / w.pageSize) + 1;
}

/** The largest page a service answers (a window without paging is covered by pages of this size). */
const LARGEST_PAGE = 1000;

/**
 * The pages (from 1, oldest first) in pages of `size` that hold the window's turns: its own
 * pages, or, for a window without paging, pages of the largest size.
 */
export function heldPages(w: TraceWindow): { pages: number[]; size: number } {
  const size = w.pageSize || LARGEST_PAGE;
  if (w.items.length === 0) return { pages: [], size };
  const first = Math.floor(w.start / size) + 1;
  const last = Math.floor((windowEnd(w) - 1) / size) + 1;
  return { pages: Array.from({ length: last - first + 1 }, (_, i) => first + i), size };
}

/** Thread positions `[from, to)` of page `page`. */
function pageRange(w: TraceWindow, page: number): { from: number; to: number } {
  if (w.pageSize === 0) return { from: 0, to: w.total };
  const from = (page - 1) * w.pageSize;
  return { from, to: Math.min(w.total, from + w.pageSize) };
}

/** The page of a turn not held, as a row says it: its thread positions `[from, to)` and why it failed to load, if it did. */
export function missingPage(
  w: TraceWindow | undefined,
  index: number,
): { from: number; to: number; failed: ApiError | undefined } {
  if (!w) return { from: index, to: index + 1, failed: undefined };
  const page = pageOf(w, index);
  return { ...pageRange(w, page), failed: w.failed.get(page) };
}

/** The trace at thread position `index`, when held. */
export function traceAt(w: TraceWindow, index: number): TolerantTrace | undefined {
  return index >= w.start ? w.items[index - w.start] : undefined;
}

/**
 * The pages not held that thread positions `[from, to)` need, nearest to the held run first
 * (at most the pages the range spans).
 */
export function pagesNeeded(w: TraceWindow, from: number, to: number): number[] {
  if (w.pageSize === 0 || to <= from) return [];
  const lo = Math.max(0, from);
  const hi = Math.min(w.total, to);
  const out: number[] = [];
  for (let p = pageOf(w, lo); lo < hi && p <= pageOf(w, hi - 1); p += 1) {
    const { from: a, to: b } = pageRange(w, p);
    if (a < w.start || b > windowEnd(w)) out.push(p);
  }
  const end = windowEnd(w);
  const distance = (p: number) => {
    const { from: a, to: b } = pageRange(w, p);
    return b <= w.start ? w.start - b : a - end;
  };
  return out.sort((a, b) => distance(a) - distance(b));
}

/**
 * The window with page `page`'s traces in it: joined to the held run when it touches it (then
 * the pages farthest from it dropped beyond MAX_HELD_PAGES), in its place when it does not.
 * The page's failure, if it had one, is forgotten.
 */
export function withPage(w: TraceWindow, page: number, items: readonly TolerantTrace[]): TraceWindow {
  if (w.pageSize === 0) return w;
  const from = (page - 1) * w.pageSize;
  const failed = new Map(w.failed);
  failed.delete(page);
  const total = Math.max(w.total, from + items.length);
  const end = windowEnd(w);
  const cap = MAX_HELD_PAGES * w.pageSize;
  if (from === end && items.length > 0) {
    // After the run: the oldest pages go.
    const joined = [...w.items, ...items];
    const drop = joined.length > cap ? Math.ceil((joined.length - cap) / w.pageSize) * w.pageSize : 0;
    return { ...w, total, failed, start: w.start + drop, items: drop ? joined.slice(drop) : joined };
  }
  if (from + w.pageSize === w.start && items.length === w.pageSize) {
    // Before the run: the newest pages go.
    const joined = [...items, ...w.items];
    return { ...w, total, failed, start: from, items: joined.slice(0, cap) };
  }
  if (from >= w.start && from + items.length <= end) {
    // Already held (fetched again): the fresh traces in place.
    const next = w.items.slice();
    for (let i = 0; i < items.length; i += 1) next[from - w.start + i] = items[i]!;
    return { ...w, total, failed, items: next };
  }
  return { ...w, total, failed, start: from, items };
}

/** The window with page `page` marked as failed (its turns named as missing until it loads). */
export function withFailedPage(w: TraceWindow, page: number, error: ApiError): TraceWindow {
  const failed = new Map(w.failed);
  failed.set(page, error);
  return { ...w, failed };
}

/**
 * The window after a send answered with `trace`: replaced in place when held, appended when the
 * run reaches the end of the thread, else only counted. The held items change by one recorded
 * change (lib/array-change), which the transcript follows in constant work.
 */
export function withSentTrace(w: TraceWindow, trace: TolerantTrace): TraceWindow {
  const at = w.items.findIndex((t) => t.interaction_id === trace.interaction_id);
  if (at !== -1) return { ...w, items: replacedAt(w.items, at, trace) };
  const end = windowEnd(w);
  if (end !== w.total) return { ...w, total: w.total + 1 };
  if (w.pageSize > 0 && w.items.length >= (MAX_HELD_PAGES + 1) * w.pageSize) {
    // A run grown by a page of sends: its oldest page goes (the transcript rebuilds, once a page).
    const items = [...w.items.slice(w.pageSize), trace];
    return { ...w, total: w.total + 1, start: w.start + w.pageSize, items };
  }
  return { ...w, total: w.total + 1, items: appended(w.items, trace) };
}

/**
 * The window after the thread's newest traces were read again (`fresh`, a refetch): a reader who
 * had moved back to earlier turns keeps them (a turn's trace does not change once written), with
 * the count brought up to date (the turns after the held run are shown as not loaded and asked for
 * when in view); otherwise the fresh newest pages.
 */
export function refreshedWindow(before: TraceWindow | undefined, fresh: TraceWindow): TraceWindow {
  if (
    !before ||
    fresh.pageSize === 0 ||
    before.pageSize !== fresh.pageSize ||
    before.start >= fresh.start ||
    windowEnd(before) > fresh.total
  )
    return fresh;
  return { ...before, total: fresh.total };
}
