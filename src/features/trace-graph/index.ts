/** Public surface of the trace graph: the model's types, and the graph's lazily loaded chunk. */

export { type GraphModel, type GraphNodeModel, type GraphEdgeModel, type NodeKind } from './trace-to-graph';
export type { TraceGraphProps } from './TraceGraph';
export type { Highlight } from './TraceNode';
/** React Flow lives in this lazy chunk: render inside <Suspense>. */
const loadTraceGraph = () => import('./TraceGraph');
/** Fetches and evaluates the graph's chunk (and the trace panel's) ahead of the first graph. */
export const preloadTraceGraph = () => Promise.all([loadTraceGraph(), import('./TracePanel')]);
