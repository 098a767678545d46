// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TolerantTrace } from '../../contract/trace';
import { GraphBuilding } from './GraphBuilding';
import { traceToGraph } from './trace-to-graph';
import { blockedDisputeTrace, scaledTrace } from './traces.fixture';
import { useGraphModel } from './use-graph-model';

afterEach(cleanup);

/** What a view shows with the hook: the graph's node count once built, else the building state. */
function Probe({ trace, schedule }: { trace: TolerantTrace; schedule: (run: () => void) => void }) {
  const build = useGraphModel(trace, schedule);
  return build.model ? (
    <p>graph of {build.model.nodes.length} nodes</p>
  ) : (
    <GraphBuilding trace={trace} rulesRead={build.rulesRead} rules={build.rules} />
  );
}

describe('useGraphModel', () => {
  it('a small trace has its graph at once', () => {
    const queue: Array<() => void> = [];
    render(<Probe trace={structuredClone(blockedDisputeTrace)} schedule={(run) => queue.push(run)} />);
    expect(screen.getByText(`graph of ${traceToGraph(blockedDisputeTrace).nodes.length} nodes`)).toBeTruthy();
    expect(queue).toHaveLength(0);
  });

  it('a huge trace shows its decision and the rules read until the whole graph is built', () => {
    const queue: Array<() => void> = [];
    const trace = scaledTrace(4_000, 20);
    render(<Probe trace={trace} schedule={(run) => queue.push(run)} />);
    expect(screen.getByRole('status').textContent).toMatch(/Drawing the graph of this turn \(4,000 rules\)/);
    expect(screen.getByText(/^Decision: blocked by RULE_5/)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Rules read: 0 of 4,000' })).toBeTruthy();

    // Slice after slice, the rules read go up while the graph is not drawn.
    const read = () => Number(screen.getByRole('progressbar').getAttribute('value'));
    while (read() === 0 && queue.length) act(() => queue.shift()!());
    expect(read()).toBeGreaterThan(0);
    expect(read()).toBeLessThan(4_000);
    expect(screen.queryByText(/^graph of/)).toBeNull();

    while (queue.length) act(() => queue.shift()!());
    expect(
      screen.getByText(`graph of ${traceToGraph(structuredClone(trace)).nodes.length} nodes`),
    ).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
