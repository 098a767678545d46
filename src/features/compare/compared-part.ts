/**
 * Which turns of two threads a comparison covers. Of a long thread only a window of turns is held
 * (its newest pages first, a few pages at most): aligning whatever each side happens to hold would
 * pair turns from different stretches of the threads, and call a turn that the other side has but
 * does not hold "one side only". So a comparison covers one stretch of thread positions on both
 * sides: from the later of the two first held turns, up to each thread's end when it is held to
 * its end, else up to the earlier of the held ends. Every turn outside that stretch is named as
 * not compared. Pure.
 */

/** What of one thread is held: turns `start … start + held` of `total` (positions from 0). */
export interface HeldPart {
  start: number;
  held: number;
  total: number;
}

/** Thread positions `[from, to)`. */
export interface TurnRange {
  from: number;
  to: number;
}

export interface ComparedSide {
  /** The positions compared (possibly empty). */
  compared: TurnRange;
  /** The positions not compared, in order (before and after the compared stretch). */
  notCompared: TurnRange[];
  total: number;
}

export interface ComparedPart {
  a: ComparedSide;
  b: ComparedSide;
  /** Both threads compared whole. */
  whole: boolean;
}

export function comparedPart(a: HeldPart, b: HeldPart): ComparedPart {
  const from = Math.max(a.start, b.start);
  const endA = a.start + a.held;
  const endB = b.start + b.held;
  // A side not held to its end: the other is compared no further than it.
  const cut = Math.min(endA < a.total ? endA : Infinity, endB < b.total ? endB : Infinity);
  const side = (end: number, total: number): ComparedSide => {
    const to = Math.max(from, Math.min(end, cut));
    const notCompared: TurnRange[] = [];
    if (Math.min(from, total) > 0) notCompared.push({ from: 0, to: Math.min(from, total) });
    if (to < total) notCompared.push({ from: Math.max(to, Math.min(from, total)), to: total });
    return { compared: { from, to }, notCompared, total };
  };
  const sa = side(endA, a.total);
  const sb = side(endB, b.total);
  return { a: sa, b: sb, whole: sa.notCompared.length === 0 && sb.notCompared.length === 0 };
}

/** The turns of `turns` (each with its thread position as `index`) inside `range`. */
export function turnsIn<T extends { index: number }>(turns: readonly T[], range: TurnRange): T[] {
  return turns.filter((t) => t.index >= range.from && t.index < range.to);
}

/** "turns 1–500" (numbered from 1), "turn 7" for one. */
export function rangeLabel(r: TurnRange): string {
  const f = (n: number) => n.toLocaleString('en-US');
  return r.to - r.from === 1 ? `turn ${f(r.from + 1)}` : `turns ${f(r.from + 1)}–${f(r.to)}`;
}
