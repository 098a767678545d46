/**
 * The trace graph, drawn with React Flow: trace → model (graphOf, once per trace) → the drawn view
 * (viewOf: the causal path, one node per group, the groups the user opened) → positions (bands) →
 * nodes. Selection is controlled by the caller (the URL); a selected or highlighted node inside a
 * closed group opens it. `highlight` marks nodes for the compare view (a hidden one marks its
 * group). Clicking a group opens or closes it. Arrow keys move the selection, Enter selects the
 * focused node (and opens or closes a group), Escape clears. The wheel zooms only while the graph
 * has focus (otherwise it scrolls the page); the view refits when the graph is resized.
 */
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type FitViewOptions,
  type NodeMouseHandler,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useDarkClass } from '../../components/ui/use-dark';
import type { TolerantTrace } from '../../contract/trace';
import { groupsAround, nodeOf, viewOf } from './graph-view';
import { cachedLayout, neighbourInDirection, type Direction } from './layout';
import { graphOf } from './trace-to-graph';
import {
  nodeAriaLabel,
  SMALLEST_FONT_PX,
  TONE_COLOR,
  TraceNode,
  type Highlight,
  type TraceFlowNode,
} from './TraceNode';

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
/** From this many drawn nodes on, only the elements in view are rendered (`onlyRenderVisibleElements`). */
const LARGE_GRAPH = 150;
/** The view is never fitted below the zoom at which the smallest node text is 11 px on screen. */
export const LEGIBLE_ZOOM = 11 / SMALLEST_FONT_PX;
const FIT: FitViewOptions = { padding: 0.04, minZoom: LEGIBLE_ZOOM, maxZoom: 1.25 };
/** The overview map is drawn once the view holds more than this many nodes (groups count as one). */
const MINIMAP_FROM = 16;
/** Highlighted nodes (compare view) opened up to this many; beyond, their groups carry the mark. */
const MAX_REVEALED = 24;

function GraphInner({
  trace,
  selectedNodeId,
  onSelectNode,
  highlight,
  label = 'Trace graph',
}: TraceGraphProps) {
  const model = useMemo(() => graphOf(trace), [trace]);
  // Groups the user opened or closed; a selected or highlighted node opens the groups around it.
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const open = useMemo(() => {
    const set = new Set<string>();
    const reveal = (id: string) => {
      for (const g of groupsAround(model, id)) if (toggled.get(g) !== false) set.add(g);
    };
    if (selectedNodeId) reveal(selectedNodeId);
    Object.keys(highlight ?? {})
      .slice(0, MAX_REVEALED)
      .forEach(reveal);
    for (const [id, isOpen] of toggled) if (isOpen) set.add(id);
    return set;
  }, [model, toggled, selectedNodeId, highlight]);
  const view = useMemo(() => viewOf(model, open), [model, open]);
  const positions = useMemo(() => cachedLayout(view), [view]);
  // A highlight on a node not drawn marks the innermost drawn group around it.
  const marks = useMemo(() => {
    if (!highlight) return undefined;
    const drawn = new Set(view.nodes.map((n) => n.id));
    const out: Record<string, Highlight> = {};
    for (const [id, kind] of Object.entries(highlight)) {
      const target = drawn.has(id) ? id : groupsAround(model, id).findLast((g) => drawn.has(g));
      if (target && !out[target]) out[target] = drawn.has(id) ? kind : 'changed';
    }
    return out;
  }, [highlight, model, view]);
  const baseNodes = useMemo<TraceFlowNode[]>(
    () =>
      view.nodes.map((n) => {
        const p = positions.get(n.id);
        const isOpen = n.kind === 'group' ? open.has(n.id) : undefined;
        return {
          id: n.id,
          type: 'trace',
          position: { x: p?.x ?? 0, y: p?.y ?? 0 },
          width: p?.width,
          height: p?.height,
          data: isOpen === undefined ? { model: n } : { model: n, open: isOpen },
          draggable: false,
          connectable: false,
          ariaLabel: nodeAriaLabel(n, isOpen),
        };
      }),
    [view, positions, open],
  );
  // Immutable updates: only the selected and highlighted nodes get new objects.
  const nodes = useMemo(
    () =>
      baseNodes.map((n) => {
        const selected = n.id === selectedNodeId;
        const hl = marks?.[n.id];
        if (!selected && !hl) return n;
        return { ...n, selected, data: hl ? { ...n.data, highlight: hl } : n.data };
      }),
    [baseNodes, selectedNodeId, marks],
  );
  const edges = useMemo<Edge[]>(() => {
    const byId = new Map(view.nodes.map((n) => [n.id, n]));
    return view.edges.map((e) => {
      const target = byId.get(e.target);
      const structural = target?.kind === 'group' || Boolean(target?.group);
      return {
        id: e.id,
        source: e.source,
        target: e.target,
        type: 'smoothstep',
        animated: false,
        style: {
          stroke: target && !structural ? TONE_COLOR[target.tone] : '#a1a1aa',
          strokeWidth: structural ? 1 : 1.75,
          ...(structural || target?.dimmed ? { strokeDasharray: '4 3' } : {}),
        },
      };
    });
  }, [view]);
  const large = view.nodes.length > LARGE_GRAPH;
  // The first view, and a refit, frame the causal path (the groups beside it may run off screen).
  const pathFit = useMemo<FitViewOptions>(
    () => ({ ...FIT, nodes: model.path.map((n) => ({ id: n.id })) }),
    [model],
  );

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

  // After a group opens, bring it and what it drew into view (at a legible zoom).
  const [focusGroup, setFocusGroup] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!focusGroup) return;
    const ids = [
      { id: focusGroup },
      ...view.edges.filter((e) => e.source === focusGroup).map((e) => ({ id: e.target })),
    ];
    const frame = requestAnimationFrame(() => void flow.fitView({ ...FIT, nodes: ids, duration: 200 }));
    return () => cancelAnimationFrame(frame);
  }, [focusGroup, view, flow]);

  const toggleGroup = useCallback(
    (id: string) => {
      const isOpen = open.has(id);
      setToggled((t) => new Map(t).set(id, !isOpen));
      setFocusGroup(isOpen ? undefined : id);
    },
    [open],
  );

  // Refit when the graph's box changes size (window or pane resized), not on the first layout.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let last: { w: number; h: number } | undefined;
    let frame = 0;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      const h = Math.round(entry?.contentRect.height ?? 0);
      if (w === 0 || h === 0) return;
      if (last && (last.w !== w || last.h !== h)) {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => void flow.fitView(pathFit));
      }
      last = { w, h };
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [flow, pathFit]);

  // The wheel zooms the graph only while it has focus; otherwise it scrolls the page.
  const [focused, setFocused] = useState(false);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const dir = KEYS[e.key];
    if (dir) {
      e.preventDefault();
      const from = selectedNodeId && positions.has(selectedNodeId) ? selectedNodeId : undefined;
      const next = from ? neighbourInDirection(positions, from, dir) : view.nodes[0]?.id;
      if (next) {
        onSelectNode(next);
        focusNode(next);
      }
    } else if (e.key === 'Enter') {
      const focusedId =
        (e.target as HTMLElement).closest?.('.react-flow__node')?.getAttribute('data-id') ?? selectedNodeId;
      if (focusedId) {
        onSelectNode(focusedId);
        if (nodeOf(model, focusedId)?.kind === 'group') toggleGroup(focusedId);
      }
    } else if (e.key === 'Escape' && selectedNodeId) {
      onSelectNode(undefined);
    }
  };

  const onNodeClick: NodeMouseHandler<TraceFlowNode> = useCallback(
    (_e, node) => {
      onSelectNode(node.id);
      if (node.data.model.kind === 'group') toggleGroup(node.id);
    },
    [onSelectNode, toggleGroup],
  );
  const onPaneClick = useCallback(() => onSelectNode(undefined), [onSelectNode]);

  return (
    <div
      ref={box}
      role="group"
      aria-label={label}
      aria-roledescription="graph"
      aria-describedby="trace-graph-help"
      tabIndex={0}
      onKeyDown={onKeyDown}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setFocused(false);
      }}
      className="h-full w-full focus-visible:outline-2 focus-visible:outline-indigo-500"
    >
      <p id="trace-graph-help" className="sr-only">
        Arrow keys move between nodes; Enter opens or closes a group; Escape clears the selection. Click the
        graph before zooming it with the wheel.
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
        fitViewOptions={pathFit}
        zoomOnScroll={focused}
        preventScrolling={focused}
        minZoom={0.15}
        maxZoom={2.5}
        proOptions={proOptions}
        colorMode={dark ? 'dark' : 'light'}
      >
        <Background gap={16} size={1} />
        <Controls showInteractive={false} position="top-right" orientation="horizontal" />
        {view.nodes.length > MINIMAP_FROM ? (
          <MiniMap
            pannable
            zoomable
            position="top-left"
            ariaLabel="Trace graph overview"
            style={{ width: 96, height: 64 }}
            nodeColor={(n) => TONE_COLOR[(n as TraceFlowNode).data.model.tone]}
          />
        ) : null}
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
