/**
 * The threads' recency order (newest activity first; ties by id), kept up to date one thread at a
 * time: a thread whose activity changes is found and placed again by binary search, so a send
 * costs O(log n) comparisons whatever the number of threads, and nothing at all when the thread
 * was already first and stays first (the same array is kept, so nothing drawn from it changes).
 * Sorting every thread happens once, when the list is loaded.
 */
export interface Ordered {
  id: string;
  created_at?: string;
  updated_at?: string;
}

/** What a thread is ordered by: its latest activity. */
const activityOf = (t: Ordered): string => t.updated_at ?? t.created_at ?? '';

/** Comparisons made since the counter was last read (work-count tests read it). */
export const orderWork = { comparisons: 0, fullSorts: 0 };

/** Negative when `a` comes before `b`: more recent first, then by id. */
function before(aKey: string, aId: string, bKey: string, bId: string): number {
  orderWork.comparisons += 1;
  if (aKey !== bKey) return aKey > bKey ? -1 : 1;
  return aId < bId ? -1 : aId > bId ? 1 : 0;
}

/** Every thread, sorted once (on load). */
export function sortedIds(threads: ReadonlyMap<string, Ordered>): string[] {
  orderWork.fullSorts += 1;
  return [...threads.values()]
    .sort((a, b) => before(activityOf(a), a.id, activityOf(b), b.id))
    .map((t) => t.id);
}

/** The first position whose thread does not come before (`key`, `id`). */
function positionOf(
  order: readonly string[],
  threads: ReadonlyMap<string, Ordered>,
  key: string,
  id: string,
): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const other = threads.get(order[mid]!);
    const otherKey = other ? activityOf(other) : '';
    if (before(otherKey, order[mid]!, key, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The order after one thread changed: `prev` is what the order was sorted by (the thread's old
 * record, undefined when it is new), `next` what it is now (undefined when it was removed).
 * `threads` are the records the order was sorted by for every other thread.
 */
export function reorder(
  order: readonly string[],
  threads: ReadonlyMap<string, Ordered>,
  prev: Ordered | undefined,
  next: Ordered | undefined,
): readonly string[] {
  const prevKey = prev && activityOf(prev);
  const nextKey = next && activityOf(next);
  if (prev && next && prevKey === nextKey) return order;
  const id = (prev ?? next)!.id;
  // Already first and still first: nothing moves.
  if (prev && next && order[0] === id && nextKey! >= prevKey!) return order;
  const out = order.slice();
  if (prev) {
    const at = positionOf(out, threads, prevKey!, id);
    if (out[at] === id) out.splice(at, 1);
    else {
      // Not where its record says (should not happen): drop it wherever it is.
      const found = out.indexOf(id);
      if (found !== -1) out.splice(found, 1);
    }
  }
  if (next) {
    out.splice(positionOf(out, threads, nextKey!, id), 0, id);
  }
  return out;
}
