/**
 * Keeping the newest row of a virtualized list in view for as long as the reader wants it there:
 * on opening, after a message of their own, and when rows arrive while they are at the end.
 *
 * One scroll to the end is not enough: rows change height as they are measured, and of a long
 * thread the newest turns arrive page by page in place of placeholder rows of an estimated
 * height, so the end moves after the scroll, and a scroll event caused by the list correcting
 * itself is not the reader leaving the end. So the wish to follow lasts: every frame it holds,
 * the list is brought back to its end when it is not there, until the newest row is the one to
 * show (`settled`: a turn, not a placeholder nor a message waiting for its reply), measured, and
 * at the end two frames in a row. The reader scrolling up (wheel, touch, keys, the scrollbar)
 * or picking another turn ends it at once.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** How close to the end counts as "reading the newest turn" (the reader's own scrolling). */
const NEAR_END_PX = 120;
/** How close to the end counts as there, while following (rounding of fractional sizes). */
const AT_END_PX = 2;
/** Frames in a row the newest row must stay measured at the end before following stops. */
const STABLE_FRAMES = 2;
const KEYS_UP = new Set(['ArrowUp', 'PageUp', 'Home']);

export interface FollowInput {
  /** Rows in the list. */
  count: number;
  /** What the newest row is (a change of it is a change of rows). */
  lastKey: string | number | undefined;
  /** Whether the newest row is the one to show (not a placeholder, no reply awaited). */
  settled: boolean;
  /** Messages of the reader's own on their way: one more brings the list to its end. */
  ownMessages: number;
}

function distanceFromEnd(el: HTMLElement): number {
  return el.scrollHeight - el.scrollTop - el.clientHeight;
}

type ListVirtualizer = Virtualizer<HTMLDivElement, Element>;

/** What following knows between frames (mutable, one per list). */
interface Follower {
  following: boolean;
  /** Where the reader last left the list, when not following. */
  atEnd: boolean;
  stable: number;
  frame: number | null;
  settled: boolean;
}

function stop(f: Follower): void {
  f.following = false;
  if (f.frame !== null) cancelAnimationFrame(f.frame);
  f.frame = null;
}

/** Whether row `index` has been measured (its key is in the size cache). */
function measured(virtualizer: ListVirtualizer, index: number): boolean {
  return index >= 0 && virtualizer.itemSizeCache.has(virtualizer.options.getItemKey(index));
}

/** One frame of following: back to the end when not there, done once the newest row is settled there. */
function followFrame(f: Follower, el: HTMLElement | null, virtualizer: ListVirtualizer): void {
  f.frame = null;
  if (!f.following || !el) return;
  if (distanceFromEnd(el) > AT_END_PX) {
    f.stable = 0;
    virtualizer.scrollToEnd();
  } else if (f.settled && measured(virtualizer, virtualizer.options.count - 1)) {
    f.stable += 1;
    if (f.stable >= STABLE_FRAMES) {
      f.following = false;
      f.atEnd = true;
      return;
    }
  } else f.stable = 0;
  f.frame = requestAnimationFrame(() => followFrame(f, el, virtualizer));
}

function startFollowing(f: Follower, el: HTMLElement | null, virtualizer: ListVirtualizer): void {
  f.following = true;
  f.stable = 0;
  virtualizer.scrollToEnd();
  f.frame ??= requestAnimationFrame(() => followFrame(f, el, virtualizer));
}

export function useFollowNewest(
  virtualizer: ListVirtualizer,
  scrollRef: RefObject<HTMLDivElement | null>,
  { count, lastKey, settled, ownMessages }: FollowInput,
): { onScroll: () => void; stopFollowing: () => void } {
  const follower = useRef<Follower>({
    following: false,
    atEnd: true,
    stable: 0,
    frame: null,
    settled,
  });
  useLayoutEffect(() => {
    follower.current.settled = settled;
  });
  const stopFollowing = useCallback(() => stop(follower.current), []);

  // Sync with the DOM: a change of rows is followed when the reader is at the end, their own
  // message always, and the first rows.
  const shown = useRef({ count: 0, lastKey: undefined as FollowInput['lastKey'], ownMessages: 0 });
  useEffect(() => {
    const before = shown.current;
    shown.current = { count, lastKey, ownMessages };
    if (count === 0) return;
    const rowsChanged = count !== before.count || lastKey !== before.lastKey;
    if (before.count === 0 || ownMessages > before.ownMessages || (rowsChanged && follower.current.atEnd))
      startFollowing(follower.current, scrollRef.current, virtualizer);
  }, [count, lastKey, ownMessages, scrollRef, virtualizer]);

  // Sync with the DOM: the reader scrolling up stops following at once.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0) stopFollowing();
    };
    const onKey = (e: KeyboardEvent) => {
      if (KEYS_UP.has(e.key) || (e.key === ' ' && e.shiftKey)) stopFollowing();
    };
    // On the list itself, not on a row: its scrollbar.
    const onPointer = (e: PointerEvent) => {
      if (e.target === el) stopFollowing();
    };
    el.addEventListener('wheel', onWheel, { passive: true });
    el.addEventListener('touchmove', stopFollowing, { passive: true });
    el.addEventListener('keydown', onKey);
    el.addEventListener('pointerdown', onPointer);
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('touchmove', stopFollowing);
      el.removeEventListener('keydown', onKey);
      el.removeEventListener('pointerdown', onPointer);
      stopFollowing();
    };
  }, [scrollRef, stopFollowing]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    const f = follower.current;
    // While following, a scroll is the list's own (a correction, the scroll to the end).
    if (el && !f.following) f.atEnd = distanceFromEnd(el) < NEAR_END_PX;
  }, [scrollRef]);

  return { onScroll, stopFollowing };
}
