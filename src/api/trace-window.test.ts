import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { TolerantTrace } from '../contract/trace';
import {
  MAX_HELD_PAGES,
  heldPages,
  pageWindow,
  pagesNeeded,
  refreshedWindow,
  traceAt,
  withFailedPage,
  withPage,
  withSentTrace,
  wholeWindow,
  windowEnd,
} from './trace-window';

const trace = (i: number) => TolerantTrace.parse({ interaction_id: `m${i}`, decision: 'proceed' });
/** Page `page` (from 1) of a thread of `total` turns in pages of `size`. */
const page = (total: number, size: number, p: number) =>
  Array.from({ length: Math.max(0, Math.min(size, total - (p - 1) * size)) }, (_, i) =>
    trace((p - 1) * size + i),
  );
const ids = (w: { items: readonly TolerantTrace[] }) => w.items.map((t) => t.interaction_id);

describe('the window of a thread’s traces', () => {
  it('opens on the newest page, at its thread position', () => {
    const w = pageWindow(1_250, 500, 3, page(1_250, 500, 3));
    expect([w.start, windowEnd(w), w.total]).toEqual([1_000, 1_250, 1_250]);
    expect(traceAt(w, 1_000)?.interaction_id).toBe('m1000');
    expect(traceAt(w, 999)).toBeUndefined();
  });

  it('names the pages the turns in view need, nearest to what is held first', () => {
    const w = pageWindow(5_000, 500, 10, page(5_000, 500, 10));
    expect(pagesNeeded(w, 4_600, 4_700)).toEqual([]);
    expect(pagesNeeded(w, 3_900, 4_600)).toEqual([9, 8]);
    expect(pagesNeeded(wholeWindow([trace(0)]), 0, 10)).toEqual([]);
  });

  it('names the pages it holds (what their turns ran with is read by the same pages)', () => {
    const short = withPage(pageWindow(1_510, 500, 3, page(1_510, 500, 3)), 4, page(1_510, 500, 4));
    expect(heldPages(short)).toEqual({ pages: [3, 4], size: 500 });
    // Without paging: pages of the largest size cover every turn.
    expect(heldPages(wholeWindow(page(1_200, 1_200, 1)))).toEqual({ pages: [1, 2], size: 1_000 });
    expect(heldPages(wholeWindow([]))).toEqual({ pages: [], size: 1_000 });
  });

  it('joins an older page before the run and drops the newest beyond the cap', () => {
    const total = 500 * (MAX_HELD_PAGES + 3);
    const last = MAX_HELD_PAGES + 3;
    let w = pageWindow(total, 500, last, page(total, 500, last));
    for (let p = last - 1; p >= 2; p -= 1) w = withPage(w, p, page(total, 500, p));
    expect(w.start).toBe(500);
    expect(w.items).toHaveLength(MAX_HELD_PAGES * 500);
    expect(ids(w)[0]).toBe('m500');
    // Scrolling back down: the newer page joins after, the oldest goes.
    const next = MAX_HELD_PAGES + 2;
    w = withPage(w, next, page(total, 500, next));
    expect([w.start, w.items.length]).toEqual([1_000, MAX_HELD_PAGES * 500]);
  });

  it('replaces the run with a page that does not touch it (a jump)', () => {
    const w = withPage(pageWindow(10_000, 500, 20, page(10_000, 500, 20)), 1, page(10_000, 500, 1));
    expect([w.start, w.items.length, w.total]).toEqual([0, 500, 10_000]);
  });

  it('keeps a failed page named until it loads', () => {
    const w = pageWindow(1_000, 500, 2, page(1_000, 500, 2));
    const failed = withFailedPage(
      w,
      1,
      new ApiError({ kind: 'http', status: 500, title: 'x', message: 'y', guidance: '' }),
    );
    expect([...failed.failed.keys()]).toEqual([1]);
    expect(withPage(failed, 1, page(1_000, 500, 1)).failed.size).toBe(0);
  });

  it('appends a sent trace when the run ends the thread, else only counts it', () => {
    const atEnd = pageWindow(1_000, 500, 2, page(1_000, 500, 2));
    const sent = withSentTrace(atEnd, trace(1_000));
    expect([sent.total, windowEnd(sent), ids(sent).at(-1)]).toEqual([1_001, 1_001, 'm1000']);
    const older = withPage(pageWindow(3_000, 500, 6, page(3_000, 500, 6)), 1, page(3_000, 500, 1));
    const counted = withSentTrace(older, trace(3_000));
    expect([counted.total, counted.items]).toEqual([3_001, older.items]);
  });
});

describe('a thread’s window read again (a refetch)', () => {
  it('keeps the earlier turns the reader moved back to, with the count brought up to date', () => {
    const before = pageWindow(5_000, 500, 2, page(5_000, 500, 2));
    const fresh = pageWindow(5_003, 500, 11, page(5_003, 500, 11));
    const w = refreshedWindow(before, fresh);
    expect([w.start, windowEnd(w), w.total]).toEqual([500, 1_000, 5_003]);
    expect(ids(w)).toEqual(ids(before));
  });

  it('takes the fresh newest pages otherwise: at the end, first read, another page size, a shorter thread', () => {
    // 5,003 turns: the short last page is read with the one before it.
    const fresh = withPage(pageWindow(5_003, 500, 10, page(5_003, 500, 10)), 11, page(5_003, 500, 11));
    const atEnd = pageWindow(5_000, 500, 10, page(5_000, 500, 10));
    expect(refreshedWindow(atEnd, fresh)).toBe(fresh);
    expect(refreshedWindow(undefined, fresh)).toBe(fresh);
    expect(refreshedWindow(pageWindow(5_000, 100, 2, page(5_000, 100, 2)), fresh)).toBe(fresh);
    const shorter = pageWindow(300, 500, 1, page(300, 500, 1));
    expect(refreshedWindow(pageWindow(5_000, 500, 2, page(5_000, 500, 2)), shorter)).toBe(shorter);
  });
});
