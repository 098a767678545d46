// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { blockedDisputeTrace } from './traces.fixture';
import TraceGraph from './TraceGraph';
import { warmUpTraceGraph } from './warm-up';

beforeAll(() => installDomStubs());
afterEach(cleanup);

/** Records, while `run` runs, whether a graph's decision node was ever in a hidden part of the page. */
async function drawnHidden(run: () => Promise<void>): Promise<{ drawn: boolean; visibleGraph: boolean }> {
  let drawn = false;
  let visibleGraph = false;
  const observer = new MutationObserver(() => {
    const decision = document.querySelector('[data-kind="decision"]');
    if (!decision) return;
    if (decision.closest('[aria-hidden="true"][inert]')) drawn = true;
    else visibleGraph = true;
  });
  observer.observe(document.body, { subtree: true, childList: true });
  try {
    await run();
  } finally {
    observer.disconnect();
  }
  return { drawn, visibleGraph };
}

describe('warmUpTraceGraph', () => {
  it('draws a graph hidden from people and assistive technology, then leaves nothing behind', async () => {
    const before = document.body.innerHTML;
    const seen = await drawnHidden(warmUpTraceGraph);
    expect(seen).toEqual({ drawn: true, visibleGraph: false });
    expect(document.body.innerHTML).toBe(before);
  });

  it('draws nothing when the page already shows a graph', async () => {
    render(<TraceGraph trace={blockedDisputeTrace} selectedNodeId={undefined} onSelectNode={() => {}} />);
    const before = document.body.innerHTML;
    const seen = await drawnHidden(warmUpTraceGraph);
    expect(seen.drawn).toBe(false);
    expect(document.body.innerHTML).toBe(before);
  });
});
