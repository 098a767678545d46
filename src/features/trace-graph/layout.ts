/**
 * Lays a graph model out with dagre, top to bottom. Deterministic: the same model gives the same
 * positions (nodes and edges are fed in model order, which is itself content-derived).
 * Also the pure keyboard-navigation helper: the nearest node in an arrow's direction.
 */
import dagre from '@dagrejs/dagre';
import type { GraphModel, NodeKind } from './trace-to-graph';

export const NODE_SIZE: Record<NodeKind, { width: number; height: number }> = {
  intent: { width: 220, height: 56 },
  param: { width: 180, height: 52 },
  entity: { width: 180, height: 52 },
  'rule-group': { width: 200, height: 56 },
  rule: { width: 200, height: 60 },
  tool: { width: 190, height: 56 },
  decision: { width: 220, height: 56 },
};

/** The stage of each kind of node: intent on top, the decision at the bottom. */
export const STAGE: Record<NodeKind, number> = { intent: 0, param: 1, entity: 1, 'rule-group': 2, rule: 3, tool: 4, decision: 5 };

export interface Positioned {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutOptions {
  /** Nodes per row; wider ranks wrap onto several rows (see wrapWideRanks). */
  maxPerRow?: number;
}

const ROW_GAP = 20;
const NODE_GAP = 24;

export function layoutGraph(model: GraphModel, options: LayoutOptions = {}): Map<string, Positioned> {
  const g = new dagre.graphlib.Graph({ multigraph: false, compound: false });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 56, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of model.nodes) g.setNode(n.id, { ...NODE_SIZE[n.kind] });
  const kindOf = new Map(model.nodes.map((n) => [n.id, n.kind]));
  for (const e of model.edges) {
    const from = kindOf.get(e.source);
    const to = kindOf.get(e.target);
    // Each stage on its own rank: an edge spans as many ranks as the stages it crosses.
    if (from && to) g.setEdge(e.source, e.target, { minlen: Math.max(1, STAGE[to] - STAGE[from]) });
  }
  dagre.layout(g);
  const out = new Map<string, Positioned>();
  for (const n of model.nodes) {
    const p = g.node(n.id) as { x: number; y: number; width: number; height: number } | undefined;
    const size = NODE_SIZE[n.kind];
    // dagre gives centres; React Flow wants top-left corners.
    out.set(n.id, {
      id: n.id,
      x: Math.round((p?.x ?? 0) - size.width / 2),
      y: Math.round((p?.y ?? 0) - size.height / 2),
      width: size.width,
      height: size.height,
    });
  }
  return wrapWideRanks(out, options.maxPerRow ?? 4);
}

/**
 * Packs every rank (nodes sharing a y) into centred rows of at most `maxPerRow` nodes, in dagre's
 * order, pushing later ranks down when a rank needs several rows. A trace with a dozen entities
 * then stays a compact block instead of one very wide line.
 */
export function wrapWideRanks(positions: Map<string, Positioned>, maxPerRow: number): Map<string, Positioned> {
  if (maxPerRow < 1) return positions;
  const ranks = new Map<number, Positioned[]>();
  for (const p of positions.values()) {
    const key = p.y + p.height / 2;
    const list = ranks.get(key);
    if (list) list.push(p);
    else ranks.set(key, [p]);
  }
  const out = new Map<string, Positioned>();
  let shift = 0;
  for (const key of [...ranks.keys()].sort((a, b) => a - b)) {
    const rank = (ranks.get(key) ?? []).sort((a, b) => a.x - b.x || (a.id < b.id ? -1 : 1));
    const top = Math.min(...rank.map((p) => p.y)) + shift;
    let y = top;
    for (let i = 0; i < rank.length; i += maxPerRow) {
      const row = rank.slice(i, i + maxPerRow);
      const width = row.reduce((w, p) => w + p.width, 0) + NODE_GAP * (row.length - 1);
      const height = Math.max(...row.map((p) => p.height));
      let x = Math.round(-width / 2);
      for (const p of row) {
        out.set(p.id, { ...p, x, y: Math.round(y + (height - p.height) / 2) });
        x += p.width + NODE_GAP;
      }
      y += height + ROW_GAP;
    }
    const originalHeight = Math.max(...rank.map((p) => p.height));
    shift += y - ROW_GAP - top - originalHeight;
  }
  return out;
}

export type Direction = 'up' | 'down' | 'left' | 'right';

/**
 * The node to move to from `fromId` with an arrow key: among nodes lying in that direction (by
 * centre), the closest, weighting sideways distance more. Undefined when there is none.
 */
export function neighbourInDirection(positions: ReadonlyMap<string, Positioned>, fromId: string, dir: Direction): string | undefined {
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
    const band = dir === 'up' || dir === 'down' ? Math.max(from.width, p.width) / 2 : Math.max(from.height, p.height) / 2;
    const score = (across < band ? 0 : 1_000_000) + along + across * 2;
    if (!best || score < best.score || (score === best.score && p.id < best.id)) best = { id: p.id, score };
  }
  return best?.id;
}
