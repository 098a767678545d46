/** Public surface of the trace graph: the pure model and layout, and the lazily loaded graph. */
import { lazy } from 'react';
export {
  traceToGraph,
  type GraphModel,
  type GraphNodeModel,
  type GraphEdgeModel,
  type NodeKind,
} from './trace-to-graph';
export { layoutGraph, neighbourInDirection } from './layout';
export type { TraceGraphProps } from './TraceGraph';
export type { Highlight } from './TraceNode';
/** React Flow lives in this lazy chunk: render inside <Suspense>. */
const loadTraceGraph = () => import('./TraceGraph');
export const LazyTraceGraph = lazy(loadTraceGraph);
/** Fetches and evaluates the graph's chunk (and the trace panel's) ahead of the first graph. */
export const preloadTraceGraph = () => Promise.all([loadTraceGraph(), import('./TracePanel')]);
export { NodeInspector } from './NodeInspector';
