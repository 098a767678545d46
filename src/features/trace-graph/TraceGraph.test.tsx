// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { installDomStubs } from '../../lib/testing/dom-stubs';
import { blockedDisputeTrace } from './fixtures';
import TraceGraph from './TraceGraph';

beforeAll(() => installDomStubs());
afterEach(cleanup);

const nodeEl = (id: string) => document.querySelector(`.react-flow__node[data-id="${id}"]`);

describe('TraceGraph', () => {
  it('draws every stage, with the blocked rule coloured as blocked', () => {
    render(<TraceGraph trace={blockedDisputeTrace} selectedNodeId={undefined} onSelectNode={() => {}} />);
    expect(screen.getByRole('group', { name: 'Trace graph' })).toBeTruthy();
    for (const id of [
      'intent',
      'param:amount',
      'entity:merchant',
      'rules:policy',
      'rule:dispute-window',
      'tool:DISPUTE_CHARGE',
      'decision',
    ]) {
      expect(nodeEl(id), id).not.toBeNull();
    }
    expect(nodeEl('rule:dispute-window')?.querySelector('[data-tone="blocked"]')).not.toBeNull();
    expect(nodeEl('tool:DISPUTE_CHARGE')?.textContent).toContain('considered, not invoked');
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
    expect(nodeEl('rules:new-kind')).not.toBeNull();
  });
});
