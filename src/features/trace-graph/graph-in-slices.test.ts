import { describe, expect, it } from 'vitest';
import { decisionCause } from '../../lib/decision-cause';
import { countVisits } from './count-visits.fixture';
import { buildGraphInSlices, GRAPH_SLICE, graphItems } from './graph-in-slices';
import { graphOf, graphSteps, knownGraph, traceToGraph, type GraphModel } from './trace-to-graph';
import { blockedDisputeTrace, cardDisputesBlockedTrace, scaledTrace } from './traces.fixture';

/** Runs a sliced build to its end, a slice per call of the schedule (no timers): the slices' results. */
function sliced(trace: Parameters<typeof traceToGraph>[0], slice: number) {
  const queue: Array<() => void> = [];
  const progress: number[] = [];
  let model: GraphModel | undefined;
  buildGraphInSlices(
    trace,
    { progress: (n) => progress.push(n), done: (m) => (model = m) },
    (run) => queue.push(run),
    slice,
  );
  while (queue.length) queue.shift()!();
  return { model: model!, progress };
}

describe('the graph model built in slices', () => {
  it('is the model built at once, whatever the slice', () => {
    for (const make of [() => blockedDisputeTrace, () => cardDisputesBlockedTrace, () => scaledTrace(3_000)])
      for (const slice of [1, 7, GRAPH_SLICE]) {
        const { model } = sliced(structuredClone(make()), slice);
        expect(model).toEqual(traceToGraph(structuredClone(make())));
      }
  });

  it('says how far it has got, slice after slice, and is remembered for the trace once done', () => {
    const trace = scaledTrace(2_000);
    const { model, progress } = sliced(trace, 100);
    expect(progress.length).toBeGreaterThan(20);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(2_000);
    expect(knownGraph(trace)).toBe(model);
    expect(graphOf(trace)).toBe(model);
  });

  it('stops when told to: nothing more is built or reported', () => {
    const trace = scaledTrace(2_000);
    const queue: Array<() => void> = [];
    const reported: number[] = [];
    let done = false;
    const stop = buildGraphInSlices(
      trace,
      { progress: (n) => reported.push(n), done: () => (done = true) },
      (run) => queue.push(run),
      100,
    );
    for (let i = 0; i < 3; i++) queue.shift()!();
    stop();
    while (queue.length) queue.shift()!();
    expect(reported).toHaveLength(3);
    expect(done).toBe(false);
    expect(knownGraph(trace)).toBeUndefined();
  });

  it("does the same bounded work in each slice, whatever the trace's size (a count, not a timer)", () => {
    /** The most array elements any one slice visits. */
    const largestSlice = (rules: number) => {
      const trace = scaledTrace(rules, 20);
      // The decision's cause is memoised per trace and worked out when the reply is shown.
      decisionCause(trace);
      const steps = graphSteps(trace, 50);
      let largest = 0;
      for (let finished = false; !finished;) {
        largest = Math.max(
          largest,
          countVisits(() => {
            finished = Boolean(steps.next().done);
          }),
        );
      }
      return largest;
    };
    const small = largestSlice(2_000);
    const large = largestSlice(16_000);
    // A slice of 50 units visits a few elements per unit, not the trace.
    expect(small).toBeLessThan(50 * 40);
    expect(large).toBeLessThan(small * 1.5);
  });

  it('counts what a trace is built from, so a small one is built at once', () => {
    expect(graphItems(blockedDisputeTrace)).toBeLessThan(GRAPH_SLICE);
    expect(graphItems(scaledTrace(1_000, 10))).toBe(1_000 + 10 + 10 + 10 + 5 + 1_000);
  });
});
