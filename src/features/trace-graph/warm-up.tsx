/**
 * The trace graph drawn once where nobody sees it, while the user reads, then removed: on a fresh
 * page the first graph otherwise pays for compiling its code (React Flow's, the graph's and the
 * model's, about half of that graph's time) when the first reply arrives. A small made-up trace
 * (one of each kind of node) is drawn off screen, hidden from people and assistive technology,
 * for two frames (React Flow measures its nodes, then draws them), and nothing of it stays. A page
 * already showing a graph has compiled that code: nothing is drawn then.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { readTrace } from '../../contract/trace';
import TraceGraph from './TraceGraph';

const WARM_UP_TRACE = readTrace({
  interaction_id: 'warm-up',
  intent: 'warm_up',
  entities: { amount: 1 },
  parameters_extracted: ['amount'],
  rules_evaluated: [
    { rule_id: 'limit', rule_type: 'policy', predicate: 'amount <= 2', result: 'blocked', reason: 'x' },
    { rule_id: 'other', rule_type: 'policy', predicate: 'true', result: 'allowed', reason: 'y' },
  ],
  tools_considered: ['TOOL'],
  tools_invoked: [{ tool: 'TOOL', parameters: { amount: 1 }, result: 'success' }],
  decision: 'block_with_explanation',
});

const ignore = () => {};

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

export async function warmUpTraceGraph(): Promise<void> {
  if (document.querySelector('.react-flow')) return;
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.setAttribute('inert', '');
  // Sized like a Trace tab (React Flow draws nothing in a box without size), never seen.
  host.style.cssText =
    'position:fixed;left:-10000px;top:0;width:640px;height:640px;visibility:hidden;pointer-events:none;contain:strict';
  document.body.append(host);
  const root = createRoot(host);
  try {
    flushSync(() =>
      root.render(
        <TraceGraph trace={WARM_UP_TRACE} selectedNodeId={undefined} onSelectNode={ignore} label="Warm-up" />,
      ),
    );
    await nextFrame();
    await nextFrame();
  } finally {
    root.unmount();
    host.remove();
  }
}
