/**
 * A huge trace's model built a slice at a time, so the page never holds more than one frame for
 * it: `graphSteps` pauses after a bounded amount of work, and the next slice runs in a task of its
 * own (the browser draws between two). A small trace is built at once. Pure apart from the
 * scheduling function it is given.
 */
import type { TolerantTrace } from '../../contract/trace';
import { graphSteps, rememberGraph, type GraphModel } from './trace-to-graph';

/** Units of work per slice (a unit is about one rule): a few milliseconds each on a laptop. */
export const GRAPH_SLICE = 400;

const lengthOf = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** The rules the trace evaluated (what the progress counts). */
export function rulesOf(trace: TolerantTrace): number {
  return lengthOf(trace.rules_evaluated);
}

/** About how many items the model is built from: at most one slice's worth is built at once. */
export function graphItems(trace: TolerantTrace): number {
  const t = trace as TolerantTrace & Record<string, unknown>;
  const entities = t.entities && typeof t.entities === 'object' ? Object.keys(t.entities).length : 0;
  return (
    rulesOf(trace) +
    entities +
    lengthOf(t.parameters_extracted) +
    lengthOf(t.tools_considered) +
    lengthOf(t.tools_invoked) +
    lengthOf(t.decisions)
  );
}

/** Runs `run` in a task of its own, after the browser has had its chance to draw. */
export function nextTask(run: () => void): void {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(run, 0);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    run();
  };
  channel.port2.postMessage(null);
}

export interface SliceCallbacks {
  /** After each slice but the last: how many rules have been read. */
  progress(rulesRead: number): void;
  /** The whole model (also remembered as the trace's, for `graphOf`). */
  done(model: GraphModel): void;
}

/**
 * Builds the trace's model a slice of `slice` units at a time, each slice in a call of `schedule`.
 * Returns a function that stops it (no callback is called after).
 */
export function buildGraphInSlices(
  trace: TolerantTrace,
  callbacks: SliceCallbacks,
  schedule: (run: () => void) => void = nextTask,
  slice: number = GRAPH_SLICE,
): () => void {
  const steps = graphSteps(trace, slice);
  let stopped = false;
  const run = () => {
    if (stopped) return;
    const step = steps.next();
    if (step.done) {
      rememberGraph(trace, step.value);
      callbacks.done(step.value);
    } else {
      callbacks.progress(step.value);
      schedule(run);
    }
  };
  schedule(run);
  return () => {
    stopped = true;
  };
}
