// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cardDisputesBlockedTrace } from './fixtures';
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
});
