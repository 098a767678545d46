/**
 * The trace graph, drawn with React Flow: trace → model (traceToGraph) → positions (dagre) →
 * nodes. Selection is controlled by the caller (the URL); `highlight` marks nodes for the compare
 * view. Arrow keys move the selection between nodes, Enter selects the focused node, Escape clears.
 */
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type NodeMouseHandler,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useMemo, type KeyboardEvent } from 'react';
import { useDarkClass } from '../../components/ui/use-dark';
import type { TolerantTrace } from '../../contract/trace';
import { cachedLayout, drawnEdges, neighbourInDirection, type Direction } from './layout';
import { graphOf } from './trace-to-graph';
import { nodeAriaLabel, TONE_COLOR, TraceNode, type Highlight, type TraceFlowNode } from './TraceNode';

export interface TraceGraphProps {
  trace: TolerantTrace;
  selectedNodeId: string | undefined;
  onSelectNode: (nodeId: string | undefined) => void;
  highlight?: Record<string, Highlight> | undefined;
  /** Accessible name of the graph region. */
  label?: string;
}

const nodeTypes = { trace: TraceNode };
const KEYS: Record<string, Direction> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
};
const proOptions = { hideAttribution: true };
/** From this many nodes on, only the elements in view are drawn (`onlyRenderVisibleElements`). */
const LARGE_GRAPH = 150;

function GraphInner({
  trace,
  selectedNodeId,
  onSelectNode,
  highlight,
  label = 'Trace graph',
}: TraceGraphProps) {
  // Both memoised per trace / model object: reopening a turn, or the panel's own lookups, reuse them.
  const model = useMemo(() => graphOf(trace), [trace]);
  const positions = useMemo(() => cachedLayout(model), [model]);
  const baseNodes = useMemo<TraceFlowNode[]>(
    () =>
      model.nodes.map((n) => {
        const p = positions.get(n.id);
        return {
          id: n.id,
          type: 'trace',
          position: { x: p?.x ?? 0, y: p?.y ?? 0 },
          width: p?.width,
          height: p?.height,
          data: { model: n },
          draggable: false,
          connectable: false,
          ariaLabel: nodeAriaLabel(n),
        };
      }),
    [model, positions],
  );
  // Immutable updates: only the selected and highlighted nodes get new objects.
  const nodes = useMemo(
    () =>
      baseNodes.map((n) => {
        const selected = n.id === selectedNodeId;
        const hl = highlight?.[n.id];
        if (!selected && !hl) return n;
        return { ...n, selected, data: hl ? { ...n.data, highlight: hl } : n.data };
      }),
    [baseNodes, selectedNodeId, highlight],
  );
  const edges = useMemo<Edge[]>(() => {
    const byId = new Map(model.nodes.map((n) => [n.id, n]));
    return drawnEdges(model).map((e) => {
      const target = byId.get(e.target);
      return {
        id: e.id,
        source: e.source,
        target: e.target,
        type: 'smoothstep',
        animated: false,
        style: {
          stroke: target ? TONE_COLOR[target.tone] : '#a1a1aa',
          strokeWidth: 1.5,
          opacity: target?.dimmed ? 0.45 : 1,
        },
      };
    });
  }, [model]);
  // A large graph (hundreds of rules) draws only the nodes and edges in view: at the zoom that fits
  // it, most are off screen, and React Flow would otherwise mount every one before the first frame.
  const large = model.nodes.length > LARGE_GRAPH;

  const dark = useDarkClass();
  const flow = useReactFlow();
  const focusNode = useCallback(
    (id: string) => {
      const p = positions.get(id);
      if (p)
        void flow.setCenter(p.x + p.width / 2, p.y + p.height / 2, { zoom: flow.getZoom(), duration: 150 });
    },
    [flow, positions],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const dir = KEYS[e.key];
    if (dir) {
      e.preventDefault();
      const from = selectedNodeId && positions.has(selectedNodeId) ? selectedNodeId : undefined;
      const next = from ? neighbourInDirection(positions, from, dir) : model.nodes[0]?.id;
      if (next) {
        onSelectNode(next);
        focusNode(next);
      }
    } else if (e.key === 'Enter') {
      const focused = (e.target as HTMLElement).closest?.('.react-flow__node')?.getAttribute('data-id');
      if (focused) onSelectNode(focused);
    } else if (e.key === 'Escape' && selectedNodeId) {
      onSelectNode(undefined);
    }
  };

  const onNodeClick: NodeMouseHandler<TraceFlowNode> = useCallback(
    (_e, node) => onSelectNode(node.id),
    [onSelectNode],
  );
  const onPaneClick = useCallback(() => onSelectNode(undefined), [onSelectNode]);

  return (
    <div
      role="group"
      aria-label={label}
      aria-roledescription="graph"
      aria-describedby="trace-graph-help"
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="h-full w-full focus-visible:outline-2 focus-visible:outline-indigo-500"
    >
      <p id="trace-graph-help" className="sr-only">
        Arrow keys move between nodes; Escape clears the selection.
      </p>
      <ReactFlow<TraceFlowNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodeClick={onNodeClick}
        onPaneClick={onPaneClick}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        onlyRenderVisibleElements={large}
        fitView
        fitViewOptions={{ padding: 0.15, maxZoom: 1.2 }}
        minZoom={0.15}
        maxZoom={2.5}
        proOptions={proOptions}
        colorMode={dark ? 'dark' : 'light'}
      >
        <Background gap={16} size={1} />
        <Controls showInteractive={false} />
        <MiniMap
          pannable
          zoomable
          ariaLabel="Trace graph overview"
          style={{ width: 120, height: 80 }}
          nodeColor={(n) => TONE_COLOR[(n as TraceFlowNode).data.model.tone]}
        />
      </ReactFlow>
    </div>
  );
}

export default function TraceGraph(props: TraceGraphProps) {
  return (
    <ReactFlowProvider>
      <GraphInner {...props} />
    </ReactFlowProvider>
  );
}
