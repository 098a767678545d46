/** Public surface of the trace graph: the model's types, and the graph's lazily loaded chunk. */

export { type GraphModel, type GraphNodeModel, type GraphEdgeModel, type NodeKind } from './trace-to-graph';
export type { TraceGraphProps } from './TraceGraph';
export type { Highlight } from './TraceNode';
/**
 * Fetches and evaluates the trace panel's chunk and the graph's (React Flow lives there) ahead of
 * the first graph, so that the first trace is drawn without suspending.
 */
export const preloadTraceGraph = () => import('./TracePanel').then((m) => m.preloadTraceView());
/** Draws a small trace off screen once, so that the first real graph does not compile the code. */
export const warmUpTraceGraph = () => import('./warm-up').then((m) => m.warmUpTraceGraph());
