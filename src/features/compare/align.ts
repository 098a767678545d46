/**
 * Turn alignment of two threads (usually a thread and one of its branches).
 *
 * 1. The shared prefix: the leading turns both threads hold unchanged (a rerun branch copies its
 *    parent's history before the regenerated interaction). Collapsed in the view.
 * 2. After it, turns are anchored where the user said the same thing (longest common subsequence
 *    of normalised user texts); between anchors, leftover turns are paired in order and the
 *    surplus is shown on one side only. The subsequence's table is bounded (`MAX_LCS_CELLS`):
 *    beyond it the turns after the prefix are paired in order, and the alignment says so.
 *
 * Pure and framework-free.
 */
import type { TolerantTrace } from '../../contract/trace';

export interface CompareTurn {
  interaction_id: string;
  user_text: string;
  reply_text: string;
  trace: TolerantTrace | null;
}

export type AlignedRow<T extends CompareTurn = CompareTurn> =
  | { kind: 'pair'; a: T; b: T; aIndex: number; bIndex: number; sameText: boolean }
  | { kind: 'only-a'; a: T; aIndex: number }
  | { kind: 'only-b'; b: T; bIndex: number };

export interface Alignment<T extends CompareTurn = CompareTurn> {
  /** Turns identical on both sides, from the start (index is the same on both sides). */
  prefix: { a: T; b: T; index: number }[];
  /** Everything after the prefix, in thread order. */
  rows: AlignedRow<T>[];
  /** False when too many turns follow the prefix to match them by message: paired in order. */
  matchedByText: boolean;
}

/** Cells of the longest-common-subsequence table at most (1,000 × 1,000 turns after the prefix). */
export const MAX_LCS_CELLS = 1_000_000;

export function normalizeText(s: string): string {
  return s.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Whether two turns are the same turn: the same interaction, or the same words in and out with
 * the same decision (a branch's copied history may carry fresh ids).
 */
export function sameTurn(a: CompareTurn, b: CompareTurn): boolean {
  if (a.interaction_id && a.interaction_id === b.interaction_id) return true;
  return (
    a.user_text === b.user_text &&
    a.reply_text === b.reply_text &&
    (a.trace?.decision ?? null) === (b.trace?.decision ?? null)
  );
}

export function sharedPrefixLength(a: readonly CompareTurn[], b: readonly CompareTurn[]): number {
  let n = 0;
  while (n < a.length && n < b.length && sameTurn(a[n]!, b[n]!)) n += 1;
  return n;
}

/** Index pairs of a longest common subsequence of `a` and `b` under `eq`, in order. */
export function lcsPairs<T>(
  a: readonly T[],
  b: readonly T[],
  eq: (x: T, y: T) => boolean,
): [number, number][] {
  const m = a.length;
  const n = b.length;
  // table[i][j] = LCS length of a[i..] and b[j..]
  const table: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let i = m - 1; i >= 0; i -= 1) {
    const row = table[i]!;
    const below = table[i + 1]!;
    for (let j = n - 1; j >= 0; j -= 1) {
      row[j] = eq(a[i]!, b[j]!) ? below[j + 1]! + 1 : Math.max(below[j]!, row[j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < m && j < n) {
    if (eq(a[i]!, b[j]!)) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) {
      i += 1;
    } else {
      j += 1;
    }
  }
  return pairs;
}

export function alignTurns<T extends CompareTurn>(a: readonly T[], b: readonly T[]): Alignment<T> {
  const p = sharedPrefixLength(a, b);
  const prefix = Array.from({ length: p }, (_, index) => ({ a: a[index]!, b: b[index]!, index }));
  const restA = a.slice(p);
  const restB = b.slice(p);
  const matchedByText = (restA.length + 1) * (restB.length + 1) <= MAX_LCS_CELLS;
  const anchors = matchedByText
    ? lcsPairs(restA, restB, (x, y) => normalizeText(x.user_text) === normalizeText(y.user_text))
    : [];

  const rows: AlignedRow<T>[] = [];
  const pushGap = (fromA: number, toA: number, fromB: number, toB: number) => {
    const paired = Math.min(toA - fromA, toB - fromB);
    for (let k = 0; k < paired; k += 1) {
      const ta = restA[fromA + k]!;
      const tb = restB[fromB + k]!;
      rows.push({
        kind: 'pair',
        a: ta,
        b: tb,
        aIndex: p + fromA + k,
        bIndex: p + fromB + k,
        sameText: ta.user_text === tb.user_text,
      });
    }
    for (let k = fromA + paired; k < toA; k += 1) rows.push({ kind: 'only-a', a: restA[k]!, aIndex: p + k });
    for (let k = fromB + paired; k < toB; k += 1) rows.push({ kind: 'only-b', b: restB[k]!, bIndex: p + k });
  };

  let ia = 0;
  let ib = 0;
  for (const [ja, jb] of anchors) {
    pushGap(ia, ja, ib, jb);
    const ta = restA[ja]!;
    const tb = restB[jb]!;
    rows.push({
      kind: 'pair',
      a: ta,
      b: tb,
      aIndex: p + ja,
      bIndex: p + jb,
      sameText: ta.user_text === tb.user_text,
    });
    ia = ja + 1;
    ib = jb + 1;
  }
  pushGap(ia, restA.length, ib, restB.length);
  return { prefix, rows, matchedByText };
}
