/**
 * Asks for the turns in view of a long thread once the view has settled: a view's first frame (at
 * the top, before it is scrolled to the newest turn) and the rows a fast scroll passes through
 * ask for nothing; the rows still in view after `SETTLE_MS` do.
 */
import { useEffect } from 'react';

const SETTLE_MS = 120;

export function useLoadInView(
  loadTurns: ((from: number, to: number) => void) | undefined,
  from: number,
  to: number,
  missing: boolean,
): void {
  useEffect(() => {
    if (!missing || !loadTurns) return;
    const timer = setTimeout(() => loadTurns(from, to), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [loadTurns, from, to, missing]);
}
