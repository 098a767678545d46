/**
 * The first click as fast as the hundredth: what the first send, the first Bundle tab and the
 * first comparison need (their chunks, Monaco with the bundle's schema and its JSON worker, the
 * validator's worker) is fetched and prepared while the user reads the first screen. It starts
 * after the first screen is painted (a `threadline:prefetch` performance mark says when, for the
 * first-load budget, which counts only what came before), one step per idle period, in the order
 * the user is likely to need them. A failed step is left for the click to retry. Nothing is
 * prefetched when the browser asks to save data.
 */

export type PrefetchStep = () => unknown;
/** Runs `task` when the page is idle; answers a cancel function. */
export type IdleScheduler = (task: () => void) => () => void;

const PREFETCH_MARK = 'threadline:prefetch';

const whenIdle: IdleScheduler = (task) => {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => task(), { timeout: 3000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 200);
  return () => clearTimeout(id);
};

/** Runs the steps one after another, each in its own idle period; answers a cancel function. */
export function runStepsWhenIdle(
  steps: readonly PrefetchStep[],
  schedule: IdleScheduler = whenIdle,
): () => void {
  let cancelled = false;
  let cancelNext: () => void = () => {};
  const run = (i: number) => {
    if (cancelled || i >= steps.length) return;
    cancelNext = schedule(() => {
      if (cancelled) return;
      // A step that throws or rejects is skipped: the click it prepares for loads it again.
      void new Promise((resolve) => resolve(steps[i]!())).catch(() => undefined).then(() => run(i + 1));
    });
  };
  run(0);
  return () => {
    cancelled = true;
    cancelNext();
  };
}

/** Calls `task` once the next frame has been painted. */
function afterNextPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

function savingData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return connection?.saveData === true;
}

/** After the next paint, marks the start and runs the steps when idle; answers a cancel function. */
export function prefetchWhileReading(steps: readonly PrefetchStep[]): () => void {
  if (savingData()) return () => {};
  let cancelSteps: () => void = () => {};
  const cancelPaint = afterNextPaint(() => {
    performance.mark(PREFETCH_MARK);
    cancelSteps = runStepsWhenIdle(steps);
  });
  return () => {
    cancelPaint();
    cancelSteps();
  };
}
