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
  NodeToolbar,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type FitViewOptions,
  type NodeMouseHandler,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useDarkClass } from '../../components/ui/use-dark';
import { cx } from '../../lib/format';
import type { TolerantTrace } from '../../contract/trace';
import { groupsAround, nodeOf, viewOf } from './graph-view';
import { fitsAt, layoutForBox, neighbourInDirection, type Direction, type Positioned } from './layout';
import { graphOf, type GraphNodeModel } from './trace-to-graph';
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
  /** Drawn beside the selected node (a what-if's value editor); null: nothing. */
  nodeTools?: ((node: GraphNodeModel) => ReactNode) | undefined;
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
const FIT_PADDING = 0.04;
const FIT: FitViewOptions = { padding: FIT_PADDING, minZoom: LEGIBLE_ZOOM, maxZoom: 1.25 };
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
  nodeTools,
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
  // The graph's box, measured before the first paint and whenever the window or pane is resized.
  const box = useRef<HTMLDivElement>(null);
  const [boxSize, setBoxSize] = useState<{ width: number; height: number }>();
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
  // Laid out for the box; a fit frames everything drawn when it fits at a legible zoom, else the
  // causal path and what changed (compare), what is beside them then a pan away.
  const { positions, framed } = useMemo(
    () =>
      layoutForBox(
        view,
        [...model.path.map((n) => n.id), ...Object.keys(marks ?? {})],
        boxSize,
        LEGIBLE_ZOOM,
        FIT_PADDING,
      ),
    [view, model, boxSize, marks],
  );
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
  const fit = useMemo<FitViewOptions>(() => ({ ...FIT, nodes: framed.map((id) => ({ id })) }), [framed]);

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

  // After a group opens, bring it and what it drew into view: all of it when that fits at a legible
  // zoom, else the group at the top left with as much of what it drew as fits.
  const [focusGroup, setFocusGroup] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!focusGroup) return;
    const ids = [focusGroup, ...view.edges.filter((e) => e.source === focusGroup).map((e) => e.target)];
    const boxes = ids.map((id) => positions.get(id)).filter((p): p is Positioned => Boolean(p));
    const group = positions.get(focusGroup);
    const frame = requestAnimationFrame(() => {
      if (!group || !boxSize || fitsAt(boxes, boxSize, LEGIBLE_ZOOM, FIT_PADDING))
        void flow.fitView({ ...FIT, nodes: ids.map((id) => ({ id })), duration: 200 });
      else
        void flow.setViewport(
          // Below the overview map (top left, 96 × 64 px).
          { x: 16 - group.x * LEGIBLE_ZOOM, y: 88 - group.y * LEGIBLE_ZOOM, zoom: LEGIBLE_ZOOM },
          { duration: 200 },
        );
    });
    return () => cancelAnimationFrame(frame);
    // Once per opened group: not again when the box or the layout changes afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusGroup, flow]);

  const toggleGroup = useCallback(
    (id: string) => {
      const isOpen = open.has(id);
      setToggled((t) => new Map(t).set(id, !isOpen));
      setFocusGroup(isOpen ? undefined : id);
    },
    [open],
  );

  // Refit when the graph's box is first measured and whenever it changes size (window or pane
  // resized); not when a group opens (that brings the group into view, above).
  const fitRef = useRef(fit);
  useEffect(() => {
    fitRef.current = fit;
  }, [fit]);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = (width: number, height: number) => {
      const size = { width: Math.round(width), height: Math.round(height) };
      if (size.width > 0 && size.height > 0)
        setBoxSize((old) => (old?.width === size.width && old.height === size.height ? old : size));
    };
    const rect = el.getBoundingClientRect();
    measure(rect.width, rect.height);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) =>
      measure(entry?.contentRect.width ?? 0, entry?.contentRect.height ?? 0),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (!boxSize) return;
    const frame = requestAnimationFrame(() => void flow.fitView(fitRef.current));
    return () => cancelAnimationFrame(frame);
  }, [boxSize, flow]);

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

  // When only the causal path fits the box legibly, the groups beside it are listed above the
  // graph as well: one click away even where they are drawn off screen.
  const offScreenGroups = framed.length < view.nodes.length ? model.groups : [];
  const selectedModel =
    selectedNodeId && positions.has(selectedNodeId) ? nodeOf(model, selectedNodeId) : undefined;
  const tools = selectedModel && nodeTools ? nodeTools(selectedModel) : null;

  return (
    <div className="flex h-full w-full flex-col">
      {offScreenGroups.length ? (
        <div
          role="group"
          aria-label="Beside the causal path"
          className="flex shrink-0 items-center gap-1 overflow-x-auto border-b border-zinc-200 px-2 py-0.5 text-xs whitespace-nowrap dark:border-zinc-800"
        >
          <span className="shrink-0 text-zinc-500">Beside the path ({offScreenGroups.length}):</span>
          {offScreenGroups.map((g) => (
            <button
              key={g.id}
              type="button"
              aria-pressed={open.has(g.id)}
              onClick={() => {
                onSelectNode(g.id);
                toggleGroup(g.id);
              }}
              className={cx(
                'shrink-0 rounded border px-1.5 hover:bg-zinc-100 dark:hover:bg-zinc-800',
                open.has(g.id)
                  ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950'
                  : 'border-zinc-300 dark:border-zinc-700',
              )}
            >
              {open.has(g.id) ? '− ' : '+ '}
              {g.label}
            </button>
          ))}
        </div>
      ) : null}
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
        className="min-h-0 w-full flex-1 focus-visible:outline-2 focus-visible:outline-indigo-500"
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
          fitViewOptions={fit}
          zoomOnScroll={focused}
          preventScrolling={focused}
          minZoom={0.15}
          maxZoom={2.5}
          proOptions={proOptions}
          colorMode={dark ? 'dark' : 'light'}
        >
          <Background gap={16} size={1} />
          {tools ? (
            <NodeToolbar
              nodeId={selectedNodeId}
              isVisible
              position={Position.Bottom}
              className="nodrag nopan nowheel"
              // Keys typed in the tools are theirs, not the graph's (arrows, Enter, Escape).
              onKeyDown={(e) => e.stopPropagation()}
            >
              {tools}
            </NodeToolbar>
          ) : null}
          {/* Fit view frames what the first view frames, never below the legible zoom (pan for the rest). */}
          <Controls
            showInteractive={false}
            position="top-right"
            orientation="horizontal"
            fitViewOptions={fit}
          />
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
