/**
 * Lays a graph model out with dagre, top to bottom. Deterministic: the same model gives the same
 * positions (nodes and edges are fed in model order, which is itself content-derived).
 * Also the pure keyboard-navigation helper: the nearest node in an arrow's direction.
 */
import dagre from '@dagrejs/dagre';
import type { GraphEdgeModel, GraphModel, NodeKind } from './trace-to-graph';

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
export const STAGE: Record<NodeKind, number> = {
  intent: 0,
  param: 1,
  entity: 1,
  'rule-group': 2,
  rule: 3,
  tool: 4,
  decision: 5,
};

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

/**
 * A rank with more rule nodes than this is laid out as one block per rule group: dagre orders the
 * groups, and each group's rules follow in model order. wrapWideRanks re-packs every rank into rows
 * anyway, so dagre's crossing minimisation over hundreds of siblings would be work thrown away.
 */
export const WIDE_RULE_RANK = 16;

/** The id dagre sees for the block standing in for a rule group's rules (not a model id: it starts with NUL). */
const blockId = (groupId: string) => `\u0000rules-of:${groupId}`;

export function layoutGraph(model: GraphModel, options: LayoutOptions = {}): Map<string, Positioned> {
  const maxPerRow = options.maxPerRow ?? 4;
  const kindOf = new Map(model.nodes.map((n) => [n.id, n.kind]));

  // Wide rule rank: each rule stands in dagre as its group's block; the block's rules, in model order.
  const ruleCount = model.nodes.reduce((n, x) => n + (x.kind === 'rule' ? 1 : 0), 0);
  const standIn = new Map<string, string>();
  const blockRules = new Map<string, string[]>();
  if (ruleCount > WIDE_RULE_RANK) {
    for (const e of model.edges) {
      if (kindOf.get(e.source) !== 'rule-group' || kindOf.get(e.target) !== 'rule' || standIn.has(e.target))
        continue;
      const block = blockId(e.source);
      standIn.set(e.target, block);
      const list = blockRules.get(block);
      if (list) list.push(e.target);
      else blockRules.set(block, [e.target]);
    }
  }
  const inDagre = (id: string) => standIn.get(id) ?? id;
  const kindInDagre = (id: string): NodeKind | undefined => (blockRules.has(id) ? 'rule' : kindOf.get(id));

  const g = new dagre.graphlib.Graph({ multigraph: false, compound: false });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 56, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of model.nodes) {
    const id = inDagre(n.id);
    if (!g.hasNode(id)) g.setNode(id, { ...NODE_SIZE[n.kind] });
  }
  for (const e of model.edges) {
    const source = inDagre(e.source);
    const target = inDagre(e.target);
    const from = kindInDagre(source);
    const to = kindInDagre(target);
    // Each stage on its own rank: an edge spans as many ranks as the stages it crosses.
    if (from && to && source !== target && !g.hasEdge(source, target))
      g.setEdge(source, target, { minlen: Math.max(1, STAGE[to] - STAGE[from]) });
  }
  dagre.layout(g);

  // dagre gives centres; React Flow wants top-left corners.
  const placed: Positioned[] = [];
  for (const id of g.nodes()) {
    const p = g.node(id) as { x: number; y: number; width: number; height: number } | undefined;
    const kind = kindInDagre(id);
    if (!kind) continue;
    const size = NODE_SIZE[kind];
    placed.push({
      id,
      x: Math.round((p?.x ?? 0) - size.width / 2),
      y: Math.round((p?.y ?? 0) - size.height / 2),
      width: size.width,
      height: size.height,
    });
  }
  const ranks = ranksOf(placed).map((rank) =>
    rank.flatMap((p) => blockRules.get(p.id)?.map((id) => ({ ...p, id })) ?? [p]),
  );
  return packRanks(ranks, maxPerRow);
}

/** Nodes grouped by rank (the same centre y), top to bottom, each rank left to right. */
function ranksOf(positions: Iterable<Positioned>): Positioned[][] {
  const ranks = new Map<number, Positioned[]>();
  for (const p of positions) {
    const key = p.y + p.height / 2;
    const list = ranks.get(key);
    if (list) list.push(p);
    else ranks.set(key, [p]);
  }
  return [...ranks.keys()]
    .sort((a, b) => a - b)
    .map((key) => (ranks.get(key) ?? []).sort((a, b) => a.x - b.x || (a.id < b.id ? -1 : 1)));
}

/**
 * Packs every rank (nodes sharing a y) into centred rows of at most `maxPerRow` nodes, in dagre's
 * order, pushing later ranks down when a rank needs several rows. A trace with a dozen entities
 * then stays a compact block instead of one very wide line.
 */
export function wrapWideRanks(
  positions: Map<string, Positioned>,
  maxPerRow: number,
): Map<string, Positioned> {
  if (maxPerRow < 1) return positions;
  return packRanks(ranksOf(positions.values()), maxPerRow);
}

/** Ranks (top to bottom, each in order) → centred rows of at most `maxPerRow`, later ranks pushed down. */
function packRanks(ranks: Positioned[][], maxPerRow: number): Map<string, Positioned> {
  const perRow = Math.max(1, maxPerRow);
  const out = new Map<string, Positioned>();
  let shift = 0;
  for (const rank of ranks) {
    if (rank.length === 0) continue;
    const top = Math.min(...rank.map((p) => p.y)) + shift;
    let y = top;
    for (let i = 0; i < rank.length; i += perRow) {
      const row = rank.slice(i, i + perRow);
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

/**
 * The edges worth drawing: when the rule rank is wide (laid out as runs of each group's rules, see
 * layoutGraph), a group keeps only its edge to the first rule of its run instead of a fan of
 * hundreds of edges (which cost more to draw than all the nodes); every other edge is kept.
 */
export function drawnEdges(model: GraphModel): GraphEdgeModel[] {
  const ruleCount = model.nodes.reduce((n, x) => n + (x.kind === 'rule' ? 1 : 0), 0);
  if (ruleCount <= WIDE_RULE_RANK) return model.edges;
  const kindOf = new Map(model.nodes.map((n) => [n.id, n.kind]));
  const headed = new Set<string>();
  return model.edges.filter((e) => {
    if (kindOf.get(e.source) !== 'rule-group' || kindOf.get(e.target) !== 'rule') return true;
    if (headed.has(e.source)) return false;
    headed.add(e.source);
    return true;
  });
}

const layouts = new WeakMap<GraphModel, Map<string, Positioned>>();

/** layoutGraph with the default options, memoised per model object (see graphOf: one model per trace). */
export function cachedLayout(model: GraphModel): ReadonlyMap<string, Positioned> {
  let positions = layouts.get(model);
  if (!positions) {
    positions = layoutGraph(model);
    layouts.set(model, positions);
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
