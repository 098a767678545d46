/**
 * Level of detail: what of a graph model is drawn, given the groups the user opened. The causal
 * path and one node per group are drawn; an open group draws its members, or, when it holds more
 * than FANOUT, chunks of them (chunks of chunks for thousands), each a group of its own. A
 * 5,000-rule trace therefore starts as a handful of nodes, and opening any group draws at most
 * FANOUT more. Building a view costs what it draws (plus one step per group): nothing here walks
 * every node of the model. Pure; views are memoised per model and set of open groups.
 */
import type { GraphEdgeModel, GraphModel, GraphNodeModel } from './trace-to-graph';

/** Most children an open group draws at once. */
export const FANOUT = 40;

export interface GraphView {
  nodes: GraphNodeModel[];
  edges: GraphEdgeModel[];
}

/** The span of members one child of a range of `n` covers: FANOUT^k, the smallest giving at most FANOUT children. */
function chunkSize(n: number): number {
  let size = 1;
  while (Math.ceil(n / size) > FANOUT) size *= FANOUT;
  return size;
}

const chunkId = (groupId: string, from: number, to: number) => `${groupId}/${from + 1}-${to}`;

const chunkCache = new WeakMap<GraphModel, Map<string, GraphNodeModel>>();

/** The node standing for members [from, to) of a group (one object per model and range). */
function chunkNode(model: GraphModel, group: GraphNodeModel, from: number, to: number): GraphNodeModel {
  let cache = chunkCache.get(model);
  if (!cache) chunkCache.set(model, (cache = new Map()));
  const id = chunkId(group.id, from, to);
  let node = cache.get(id);
  if (!node) {
    const members = group.members ?? [];
    const first = model.byId.get(members[from] ?? '')?.label ?? '';
    const last = model.byId.get(members[to - 1] ?? '')?.label ?? '';
    node = {
      id,
      kind: 'group',
      ...(group.memberKind ? { memberKind: group.memberKind } : {}),
      label: `${first} … ${last}`,
      sublabel: `${(from + 1).toLocaleString('en')}–${to.toLocaleString('en')} of ${group.label}`,
      tone: group.tone,
      dimmed: false,
      badge: 'show',
      group: group.id,
      details: [
        ['group', group.label],
        ['members', `${(from + 1).toLocaleString('en')}–${to.toLocaleString('en')}`],
      ],
    };
    cache.set(id, node);
  }
  return node;
}

/** A node of the model, or a chunk of a group drawn from it. */
export function nodeOf(model: GraphModel, id: string): GraphNodeModel | undefined {
  return model.byId.get(id) ?? chunkCache.get(model)?.get(id);
}

/**
 * The groups (and chunks) to open, outermost first, for `id` to be drawn; empty for a node that is
 * drawn anyway (or unknown).
 */
export function groupsAround(model: GraphModel, id: string): string[] {
  const node = model.byId.get(id);
  const group = node?.group ? model.byId.get(node.group) : undefined;
  const index = model.indexInGroup.get(id);
  if (!group || index === undefined) return [];
  const chain = [group.id];
  let from = 0;
  let to = group.members?.length ?? 0;
  while (to - from > FANOUT) {
    const size = chunkSize(to - from);
    const start = from + Math.floor((index - from) / size) * size;
    from = start;
    to = Math.min(to, start + size);
    chain.push(chunkId(group.id, from, to));
  }
  return chain;
}

function buildView(model: GraphModel, open: ReadonlySet<string>): GraphView {
  const nodes: GraphNodeModel[] = [];
  const edges: GraphEdgeModel[] = [];
  const drawn = new Set<string>();
  const edgeIds = new Set<string>();
  const draw = (n: GraphNodeModel) => {
    nodes.push(n);
    drawn.add(n.id);
  };
  const link = (source: string, target: string) => {
    const id = `${source}->${target}`;
    if (edgeIds.has(id)) return;
    edgeIds.add(id);
    edges.push({ id, source, target });
  };
  const intent = model.nodes[0];

  const expand = (parent: string, group: GraphNodeModel, from: number, to: number) => {
    const members = group.members ?? [];
    if (to - from <= FANOUT) {
      for (let i = from; i < to; i += 1) {
        const m = model.byId.get(members[i] ?? '');
        if (!m) continue;
        draw(m);
        link(parent, m.id);
      }
      return;
    }
    const size = chunkSize(to - from);
    for (let start = from; start < to; start += size) {
      const chunk = chunkNode(model, group, start, Math.min(to, start + size));
      draw(chunk);
      link(parent, chunk.id);
      if (open.has(chunk.id)) expand(chunk.id, group, start, Math.min(to, start + size));
    }
  };

  for (const n of model.path) draw(n);
  for (const g of model.groups) {
    draw(g);
    if (intent) link(intent.id, g.id);
    if (open.has(g.id)) expand(g.id, g, 0, g.members?.length ?? 0);
  }
  // Content edges between drawn nodes (a grouped member hangs from its group, not the intent).
  for (const n of nodes) {
    if (n.kind === 'group') continue;
    for (const e of model.into.get(n.id) ?? []) {
      if (!drawn.has(e.source)) continue;
      if (n.group && e.source === intent?.id) continue;
      link(e.source, e.target);
    }
  }
  return { nodes, edges };
}

const views = new WeakMap<GraphModel, Map<string, GraphView>>();
const MAX_VIEWS_PER_MODEL = 32;

/** The drawn part of `model` with the groups in `open` opened, memoised per model and set. */
export function viewOf(model: GraphModel, open: ReadonlySet<string>): GraphView {
  let cache = views.get(model);
  if (!cache) views.set(model, (cache = new Map()));
  const key = [...open].sort().join('\n');
  let view = cache.get(key);
  if (!view) {
    view = buildView(model, open);
    if (cache.size >= MAX_VIEWS_PER_MODEL) cache.delete(cache.keys().next().value as string);
    cache.set(key, view);
  }
  return view;
}
