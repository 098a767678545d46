// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cardDisputesBlockedTrace } from './traces.fixture';
import { NodeInspector } from './NodeInspector';
import { traceToGraph } from './trace-to-graph';

afterEach(cleanup);

describe('NodeInspector', () => {
  it('shows a tool that was considered but not invoked without any internal flag', () => {
    const tool = traceToGraph(cardDisputesBlockedTrace).nodes.find((n) => n.kind === 'tool' && n.dimmed);
    expect(tool, 'a considered, not invoked tool').toBeDefined();
    render(<NodeInspector node={tool!} />);
    const details = screen.getByRole('region', { name: `Details of ${tool!.label}` });
    expect(details.textContent).toContain('considered');
    expect(details.textContent).not.toMatch(/dimmed/i);
  });

  it("offers a rule's page on a rule, named by its id, and on nothing else", () => {
    const nodes = traceToGraph(cardDisputesBlockedTrace).nodes;
    const rule = nodes.find((n) => n.kind === 'rule' && n.label === 'DISPUTE_WINDOW')!;
    const opened: string[] = [];
    render(<NodeInspector node={rule} openRule={(id) => opened.push(id)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Rule’s page' }));
    expect(opened).toEqual(['DISPUTE_WINDOW']);
    cleanup();
    const tool = nodes.find((n) => n.kind === 'tool')!;
    render(<NodeInspector node={tool} openRule={(id) => opened.push(id)} />);
    expect(screen.queryByRole('button', { name: 'Rule’s page' })).toBeNull();
  });
});
