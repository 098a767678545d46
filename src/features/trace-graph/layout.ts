/**
 * Lays a drawn view out in stage bands, top to bottom: intent; the values; the rules (and tools);
 * the decision. In each band the causal path's nodes are centred on one column (x = 0), so the
 * path reads straight down, and the band's groups follow to their right; an open group's children
 * fill rows of at most `maxPerRow` just below the band, under the group, an open chunk's below
 * those. Pure, deterministic (model order), and linear in the drawn nodes.
 * Also the pure keyboard-navigation helper: the nearest node in an arrow's direction.
 */
import type { GraphView } from './graph-view';
import type { GraphNodeModel, NodeKind } from './trace-to-graph';

/** Each kind's width and least height (one line of label). */
export const NODE_SIZE: Record<NodeKind, { width: number; height: number }> = {
  intent: { width: 240, height: 64 },
  param: { width: 220, height: 64 },
  entity: { width: 220, height: 64 },
  rule: { width: 260, height: 64 },
  tool: { width: 220, height: 64 },
  decision: { width: 380, height: 76 },
  group: { width: 190, height: 60 },
};

/**
 * How TraceNode sets a label: the decision's at 14 px on 18 px lines (at most 3), the others' at
 * 13 px on 17 px lines (at most 2), semibold, breaking anywhere; around it 2 px borders (a group's
 * 4), 4 px of padding above and below, a 16 px header line and a 16 px sublabel line.
 */
const LABEL = {
  decision: { px: 14, line: 18, lines: 3 },
  other: { px: 13, line: 17, lines: 2 },
} as const;
/** A semibold character's width, in ems, generous for capitals and underscores (rule ids). */
const CHAR_EM = 0.66;

/** A node's box: its kind's width, and a height that holds its label's lines (the decision's cause may take three). */
export function nodeSize(n: Pick<GraphNodeModel, 'kind' | 'label' | 'sublabel'>): {
  width: number;
  height: number;
} {
  const { width, height } = NODE_SIZE[n.kind];
  const text = n.kind === 'decision' ? LABEL.decision : LABEL.other;
  const border = n.kind === 'group' ? 8 : 4;
  const perLine = Math.max(1, Math.floor((width - 20 - border) / (text.px * CHAR_EM)));
  const lines = Math.min(text.lines, Math.max(1, Math.ceil(n.label.length / perLine)));
  const content = border + 8 + 16 + lines * text.line + (n.sublabel ? 16 : 0);
  return { width, height: Math.max(height, content) };
}

/** The band of each kind of node: intent on top, the decision at the bottom. */
const STAGE: Record<NodeKind, number> = {
  intent: 0,
  param: 1,
  entity: 1,
  rule: 2,
  tool: 2,
  decision: 3,
  group: 2,
};

/** A node's band: a group sits in its members' band. */
const stageOf = (n: Pick<GraphNodeModel, 'kind' | 'memberKind'>) =>
  STAGE[n.kind === 'group' ? (n.memberKind ?? 'rule') : n.kind];

export interface Positioned {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutOptions {
  /** Children of an open group per row (and path nodes of one band per row). */
  maxPerRow?: number;
  /**
   * The width the graph should keep to (graph units), e.g. what the pane shows at a legible zoom:
   * a band's groups that would not fit beside its path go in rows under it. Unbounded by default.
   */
  maxWidth?: number;
}

const ROW_GAP = 16;
const BAND_GAP = 36;
const NODE_GAP = 24;

export function layoutGraph(view: GraphView, options: LayoutOptions = {}): Map<string, Positioned> {
  const perRow = Math.max(1, options.maxPerRow ?? 5);
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  // An open group's children, in order: the edges a group draws to what it holds.
  const children = new Map<string, string[]>();
  const isChild = new Set<string>();
  for (const e of view.edges) {
    if (byId.get(e.source)?.kind !== 'group' || isChild.has(e.target)) continue;
    isChild.add(e.target);
    const list = children.get(e.source);
    if (list) list.push(e.target);
    else children.set(e.source, [e.target]);
  }
  const bands = new Map<number, { path: GraphNodeModel[]; groups: GraphNodeModel[] }>();
  for (const n of view.nodes) {
    if (isChild.has(n.id)) continue;
    const stage = stageOf(n);
    let band = bands.get(stage);
    if (!band) bands.set(stage, (band = { path: [], groups: [] }));
    (n.kind === 'group' ? band.groups : band.path).push(n);
  }

  const out = new Map<string, Positioned>();
  const sizes = new Map(view.nodes.map((n) => [n.id, nodeSize(n)]));
  const sizeOf = (n: GraphNodeModel) => sizes.get(n.id)!;
  const place = (n: GraphNodeModel, x: number, y: number) => {
    out.set(n.id, { id: n.id, x: Math.round(x), y: Math.round(y), ...sizeOf(n) });
  };
  const rowWidth = (row: GraphNodeModel[]) =>
    row.reduce((w, n) => w + sizeOf(n).width, 0) + NODE_GAP * Math.max(0, row.length - 1);
  const rowHeight = (row: GraphNodeModel[]) => Math.max(0, ...row.map((n) => sizeOf(n).height));
  /** Places `nodes` in rows from (left, top), each open group's subtree after its row; answers the next free y. */
  const placeRows = (nodes: GraphNodeModel[], left: number, top: number): number => {
    let y = top;
    for (let i = 0; i < nodes.length; i += perRow) {
      const row = nodes.slice(i, i + perRow);
      let x = left;
      for (const n of row) {
        place(n, x, y);
        x += sizeOf(n).width + NODE_GAP;
      }
      y += rowHeight(row) + ROW_GAP;
      for (const n of row) y = placeChildren(n, y);
    }
    return y;
  };
  const placeChildren = (group: GraphNodeModel, top: number): number => {
    const ids = children.get(group.id);
    const at = out.get(group.id);
    if (!ids || !at) return top;
    const nodes = ids.map((id) => byId.get(id)).filter((n): n is GraphNodeModel => Boolean(n));
    return placeRows(nodes, at.x, top);
  };

  const maxWidth = options.maxWidth ?? Infinity;
  const groupStep = NODE_SIZE.group.width + NODE_GAP;
  let y = 0;
  for (const stage of [...bands.keys()].sort((a, b) => a - b)) {
    const { path, groups } = bands.get(stage)!;
    const top = y;
    let bottom = top;
    // The path's nodes centred on x = 0, in rows.
    let firstRowWidth = 0;
    for (let i = 0; i < path.length; i += perRow) {
      const row = path.slice(i, i + perRow);
      const width = rowWidth(row);
      if (i === 0) firstRowWidth = width;
      let x = -width / 2;
      const rowTop = bottom;
      for (const n of row) {
        place(n, x, rowTop + (rowHeight(row) - sizeOf(n).height) / 2);
        x += sizeOf(n).width + NODE_GAP;
      }
      bottom += rowHeight(row) + ROW_GAP;
    }
    // The band's groups right of its first row when they fit within maxWidth (centred on the
    // path), else in centred rows under the path, as many to a row as fit.
    const besideFrom = firstRowWidth / 2 + NODE_GAP * 2;
    const beside = path.length > 0 && besideFrom + groups.length * groupStep - NODE_GAP <= maxWidth / 2;
    if (beside) {
      let x = besideFrom;
      for (const g of groups) {
        place(g, x, top);
        x += groupStep;
      }
      if (groups.length) bottom = Math.max(bottom, top + rowHeight(groups) + ROW_GAP);
      for (const g of groups) bottom = placeChildren(g, bottom);
    } else {
      const perGroupRow = Math.max(1, Math.floor((maxWidth + NODE_GAP) / groupStep));
      for (let i = 0; i < groups.length; i += perGroupRow) {
        const row = groups.slice(i, i + perGroupRow);
        let x = -(row.length * groupStep - NODE_GAP) / 2;
        for (const g of row) {
          place(g, x, bottom);
          x += groupStep;
        }
        bottom += rowHeight(row) + ROW_GAP;
        for (const g of row) bottom = placeChildren(g, bottom);
      }
    }
    y = bottom - ROW_GAP + BAND_GAP;
  }
  return out;
}

const layouts = new WeakMap<GraphView, Map<number, Map<string, Positioned>>>();

/** layoutGraph memoised per view object (see viewOf: one view per model and open groups) and width. */
function cachedLayout(view: GraphView, maxWidth = Infinity): ReadonlyMap<string, Positioned> {
  let byWidth = layouts.get(view);
  if (!byWidth) layouts.set(view, (byWidth = new Map()));
  let positions = byWidth.get(maxWidth);
  if (!positions) {
    positions = layoutGraph(view, { maxWidth });
    byWidth.set(maxWidth, positions);
  }
  return positions;
}

/** Do all these boxes fit a box of `box` pixels at `minZoom` or more (with React Flow's fit `padding`)? */
export function fitsAt(
  positions: Iterable<Positioned>,
  box: { width: number; height: number },
  minZoom: number,
  padding: number,
): boolean {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of positions) {
    left = Math.min(left, p.x);
    top = Math.min(top, p.y);
    right = Math.max(right, p.x + p.width);
    bottom = Math.max(bottom, p.y + p.height);
  }
  // React Flow's fit: the box shrunk by (1 + padding), the tighter of the two axes.
  return Math.min(box.width / (right - left), box.height / (bottom - top)) / (1 + padding) >= minZoom;
}

/**
 * The layout for a graph box of `box` pixels and what a fit should frame in it. Best: everything
 * drawn, laid out within the box's width at `minZoom` (groups under the path when they do not fit
 * beside it). When that is too tall for the box, the compact layout (groups beside the path) with
 * only the causal path `pathIds` framed, legible, the rest a pan away. Before the box is known,
 * the compact layout and the path.
 */
export function layoutForBox(
  view: GraphView,
  pathIds: readonly string[],
  box: { width: number; height: number } | undefined,
  minZoom: number,
  padding: number,
): { positions: ReadonlyMap<string, Positioned>; framed: readonly string[] } {
  if (!box) return { positions: cachedLayout(view), framed: pathIds };
  // In steps of 40 units, so a small resize does not lay the graph out again.
  const maxWidth = Math.floor(box.width / (1 + padding) / minZoom / 40) * 40;
  const bounded = cachedLayout(view, maxWidth);
  if (fitsAt(bounded.values(), box, minZoom, padding))
    return { positions: bounded, framed: [...bounded.keys()] };
  const compact = cachedLayout(view);
  return {
    positions: compact,
    framed: fitsAt(compact.values(), box, minZoom, padding) ? [...compact.keys()] : pathIds,
  };
}

export type Direction = 'up' | 'down' | 'left' | 'right';

/**
 * The node to move to from `fromId` with an arrow key: among nodes lying in that direction (by
 * centre), the closest, weighting sideways distance more. Undefined when there is none.
 */
export function neighbourInDirection(
  positions: ReadonlyMap<string, Positioned>,
  fromId: string,
  dir: Direction,
): string | undefined {
  const from = positions.get(fromId);
  if (!from) return undefined;
  const cx = from.x + from.width / 2;
  const cy = from.y + from.height / 2;
  // Nodes in the same row (or column) come first; otherwise the closest, sideways distance
  // weighing double.
  let best: { id: string; score: number } | undefined;
  for (const p of positions.values()) {
    if (p.id === fromId) continue;
    const dx = p.x + p.width / 2 - cx;
    const dy = p.y + p.height / 2 - cy;
    const along = dir === 'up' ? -dy : dir === 'down' ? dy : dir === 'left' ? -dx : dx;
    const across = dir === 'up' || dir === 'down' ? Math.abs(dx) : Math.abs(dy);
    if (along <= 1) continue;
    const band =
      dir === 'up' || dir === 'down'
        ? Math.max(from.width, p.width) / 2
        : Math.max(from.height, p.height) / 2;
    const score = (across < band ? 0 : 1_000_000) + along + across * 2;
    if (!best || score < best.score || (score === best.score && p.id < best.id)) best = { id: p.id, score };
  }
  return best?.id;
}
