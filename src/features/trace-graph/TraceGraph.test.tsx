// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { blockedDisputeTrace, cardDisputesBlockedTrace } from './traces.fixture';
import TraceGraph from './TraceGraph';

beforeAll(() => installDomStubs());
afterEach(cleanup);

const nodeEl = (id: string) => document.querySelector(`.react-flow__node[data-id="${id}"]`);

describe('TraceGraph', () => {
  it('draws the causal path and the groups, the deciding rule blocked and named on the decision', () => {
    render(
      <TraceGraph trace={cardDisputesBlockedTrace} selectedNodeId={undefined} onSelectNode={() => {}} />,
    );
    expect(screen.getByRole('group', { name: 'Trace graph' })).toBeTruthy();
    for (const id of [
      'intent',
      'param:transaction-date',
      'rule:DISPUTE_WINDOW',
      'decision',
      'entities',
      'tools',
    ])
      expect(nodeEl(id), id).not.toBeNull();
    expect(nodeEl('tool:DISPUTE_CHARGE')).toBeNull();
    expect(nodeEl('rule:DISPUTE_WINDOW')?.querySelector('[data-tone="blocked"]')).not.toBeNull();
    expect(nodeEl('decision')?.textContent).toContain('blocked by DISPUTE_WINDOW');
  });

  it('opens a group on click (and closes it again), and opens the groups around a selected node', () => {
    const onSelect = vi.fn();
    const { rerender } = render(
      <TraceGraph trace={cardDisputesBlockedTrace} selectedNodeId={undefined} onSelectNode={onSelect} />,
    );
    fireEvent.click(nodeEl('tools')!);
    expect(onSelect).toHaveBeenLastCalledWith('tools');
    expect(nodeEl('tool:DISPUTE_CHARGE')?.textContent).toContain('considered, not invoked');
    expect(nodeEl('tools')?.querySelector('[data-open="true"]')).not.toBeNull();
    fireEvent.click(nodeEl('tools')!);
    expect(nodeEl('tool:DISPUTE_CHARGE')).toBeNull();
    rerender(
      <TraceGraph
        trace={cardDisputesBlockedTrace}
        selectedNodeId="rule:ASK_CONTACT"
        onSelectNode={onSelect}
      />,
    );
    expect(nodeEl('rule:ASK_CONTACT')?.classList.contains('selected')).toBe(true);
  });

  it('selects a node on click, moves with the arrow keys, clears with Escape', () => {
    const onSelect = vi.fn();
    const { rerender } = render(
      <TraceGraph trace={blockedDisputeTrace} selectedNodeId={undefined} onSelectNode={onSelect} />,
    );
    fireEvent.click(nodeEl('rule:dispute-window')!);
    expect(onSelect).toHaveBeenLastCalledWith('rule:dispute-window');

    const graph = screen.getByRole('group', { name: 'Trace graph' });
    rerender(<TraceGraph trace={blockedDisputeTrace} selectedNodeId="intent" onSelectNode={onSelect} />);
    expect(nodeEl('intent')?.classList.contains('selected')).toBe(true);
    fireEvent.keyDown(graph, { key: 'ArrowDown' });
    const moved = onSelect.mock.lastCall?.[0] as string;
    expect(moved).toMatch(/^(param|entity):/);
    fireEvent.keyDown(graph, { key: 'Escape' });
    expect(onSelect).toHaveBeenLastCalledWith(undefined);
  });

  it('marks highlighted nodes for the compare view', () => {
    render(
      <TraceGraph
        trace={blockedDisputeTrace}
        selectedNodeId={undefined}
        onSelectNode={() => {}}
        highlight={{ 'rule:dispute-window': 'changed', 'tool:LOOKUP_TRANSACTION': 'added' }}
      />,
    );
    expect(nodeEl('rule:dispute-window')?.textContent).toContain('changed');
    // A highlighted node inside a group is drawn (its group opened).
    expect(nodeEl('tool:LOOKUP_TRANSACTION')?.textContent).toContain('added');
    expect(nodeEl('intent')?.textContent).not.toContain('changed');
  });

  it('does not crash on an empty or strange trace', () => {
    const strange = {
      ...TolerantTrace.parse({
        decision: 'escalate',
        rules_evaluated: [{ rule_type: 'new-kind', result: '???' }],
      }),
      surprise: { deep: [1] },
    };
    render(<TraceGraph trace={strange} selectedNodeId="nope" onSelectNode={() => {}} />);
    expect(nodeEl('decision')?.textContent).toContain('escalate');
    expect(nodeEl('rules:other')?.textContent).toContain('1 rule with other results');
  });

  it('draws the tools given for the selected node beside it, and none for a node without', () => {
    const tools = (node: { kind: string; label: string }) =>
      node.kind === 'param' ? <p>Edit {node.label}</p> : null;
    const { rerender } = render(
      <TraceGraph
        trace={cardDisputesBlockedTrace}
        selectedNodeId="param:transaction-date"
        onSelectNode={() => {}}
        nodeTools={tools}
      />,
    );
    expect(screen.getByText('Edit transaction-date')).toBeTruthy();
    rerender(
      <TraceGraph
        trace={cardDisputesBlockedTrace}
        selectedNodeId="rule:DISPUTE_WINDOW"
        onSelectNode={() => {}}
        nodeTools={tools}
      />,
    );
    expect(screen.queryByText(/^Edit /)).toBeNull();
  });
});
