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

export const NODE_SIZE: Record<NodeKind, { width: number; height: number }> = {
  intent: { width: 240, height: 64 },
  param: { width: 220, height: 64 },
  entity: { width: 220, height: 64 },
  rule: { width: 260, height: 64 },
  tool: { width: 220, height: 64 },
  decision: { width: 380, height: 76 },
  group: { width: 190, height: 60 },
};

/** The band of each kind of node: intent on top, the decision at the bottom. */
export const STAGE: Record<NodeKind, number> = {
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
  const place = (n: GraphNodeModel, x: number, y: number) => {
    const size = NODE_SIZE[n.kind];
    out.set(n.id, { id: n.id, x: Math.round(x), y: Math.round(y), ...size });
  };
  const rowWidth = (row: GraphNodeModel[]) =>
    row.reduce((w, n) => w + NODE_SIZE[n.kind].width, 0) + NODE_GAP * Math.max(0, row.length - 1);
  const rowHeight = (row: GraphNodeModel[]) => Math.max(0, ...row.map((n) => NODE_SIZE[n.kind].height));
  /** Places `nodes` in rows from (left, top), each open group's subtree after its row; answers the next free y. */
  const placeRows = (nodes: GraphNodeModel[], left: number, top: number): number => {
    let y = top;
    for (let i = 0; i < nodes.length; i += perRow) {
      const row = nodes.slice(i, i + perRow);
      let x = left;
      for (const n of row) {
        place(n, x, y);
        x += NODE_SIZE[n.kind].width + NODE_GAP;
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

  let y = 0;
  for (const stage of [...bands.keys()].sort((a, b) => a - b)) {
    const { path, groups } = bands.get(stage)!;
    const top = y;
    let bottom = top;
    // The path's nodes centred on x = 0, in rows; the band's groups right of the first row.
    let right = 0;
    for (let i = 0; i < Math.max(path.length, 1); i += perRow) {
      const row = path.slice(i, i + perRow);
      const width = rowWidth(row);
      let x = -width / 2;
      const rowTop = bottom;
      for (const n of row) {
        place(n, x, rowTop + (rowHeight(row) - NODE_SIZE[n.kind].height) / 2);
        x += NODE_SIZE[n.kind].width + NODE_GAP;
      }
      if (i === 0) right = row.length ? width / 2 + NODE_GAP * 2 : -NODE_SIZE.group.width / 2;
      bottom += row.length ? rowHeight(row) + ROW_GAP : 0;
    }
    let x = right;
    for (const g of groups) {
      place(g, x, top);
      x += NODE_SIZE.group.width + NODE_GAP;
    }
    if (groups.length) bottom = Math.max(bottom, top + NODE_SIZE.group.height + ROW_GAP);
    for (const g of groups) bottom = placeChildren(g, bottom);
    y = bottom - ROW_GAP + BAND_GAP;
  }
  return out;
}

const layouts = new WeakMap<GraphView, Map<string, Positioned>>();

/** layoutGraph with the default options, memoised per view object (see viewOf: one view per model and open groups). */
export function cachedLayout(view: GraphView): ReadonlyMap<string, Positioned> {
  let positions = layouts.get(view);
  if (!positions) {
    positions = layoutGraph(view);
    layouts.set(view, positions);
  }
  return positions;
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
