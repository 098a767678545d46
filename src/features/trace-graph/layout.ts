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

export interface Positioned {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export function layoutGraph(model: GraphModel): Map<string, Positioned> {
  const g = new dagre.graphlib.Graph({ multigraph: false, compound: false });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 56, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of model.nodes) g.setNode(n.id, { ...NODE_SIZE[n.kind] });
  for (const e of model.edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
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
  let best: { id: string; score: number } | undefined;
  for (const p of positions.values()) {
    if (p.id === fromId) continue;
    const dx = p.x + p.width / 2 - cx;
    const dy = p.y + p.height / 2 - cy;
    const along = dir === 'up' ? -dy : dir === 'down' ? dy : dir === 'left' ? -dx : dx;
    const across = dir === 'up' || dir === 'down' ? Math.abs(dx) : Math.abs(dy);
    if (along <= 1) continue;
    const score = along + across * 2;
    if (!best || score < best.score || (score === best.score && p.id < best.id)) best = { id: p.id, score };
  }
  return best?.id;
}
