import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { cardDisputesBlockedTrace } from './traces.fixture';
import { FANOUT, viewOf } from './graph-view';
import {
  layoutForBox,
  layoutGraph,
  neighbourInDirection,
  NODE_SIZE,
  nodeSize,
  type Positioned,
} from './layout';
import { traceToGraph } from './trace-to-graph';

/** A trace like the engine's for a bundle of many global rules on one tool. */
function wideTrace(rules: number) {
  return TolerantTrace.parse({
    interaction_id: 'msg_wide',
    intent: 'place_order',
    parameters_extracted: ['order-note'],
    entities: { note: 'gift wrap' },
    rules_evaluated: Array.from({ length: rules }, (_, i) => ({
      rule_id: `GLOBAL_RULE_${i}`,
      rule_type: 'global',
      predicate: `order-note eq never-${i}`,
      result: i % 50 === 7 ? 'blocked' : 'not_applicable',
    })),
    tools_considered: ['PLACE_ORDER', 'CANCEL_ORDER'],
    tools_invoked: [{ tool: 'PLACE_ORDER', parameters: { 'order-note': 'gift wrap' }, result: 'success' }],
    decision: 'block_with_explanation',
  });
}

function expectNoOverlap(positions: ReadonlyMap<string, Positioned>) {
  const boxes = [...positions.values()].sort((a, b) => a.y - b.y || a.x - b.x);
  for (let i = 0; i < boxes.length; i += 1) {
    const p = boxes[i]!;
    for (let j = i + 1; j < boxes.length && boxes[j]!.y < p.y + p.height; j += 1) {
      const q = boxes[j]!;
      const apart =
        p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y;
      if (!apart) throw new Error(`${p.id} overlaps ${q.id}`);
    }
  }
}

const centre = (p: Positioned | undefined) => (p ? p.x + p.width / 2 : NaN);

describe('layoutGraph', () => {
  const model = traceToGraph(cardDisputesBlockedTrace);

  it('is deterministic', () => {
    const other = traceToGraph(structuredClone(cardDisputesBlockedTrace));
    expect([...layoutGraph(viewOf(model, new Set())).values()]).toEqual([
      ...layoutGraph(viewOf(other, new Set())).values(),
    ]);
  });

  it('draws the causal path as one straight column, top to bottom, the groups beside it', () => {
    const p = layoutGraph(viewOf(model, new Set()));
    const path = ['intent', 'param:transaction-date', 'rule:DISPUTE_WINDOW', 'decision'];
    for (let i = 1; i < path.length; i += 1) {
      expect(p.get(path[i]!)!.y).toBeGreaterThan(p.get(path[i - 1]!)!.y);
      expect(centre(p.get(path[i]!))).toBe(0);
    }
    expect(centre(p.get('intent'))).toBe(0);
    for (const g of model.groups) expect(p.get(g.id)!.x).toBeGreaterThan(p.get('rule:DISPUTE_WINDOW')!.x);
    expectNoOverlap(p);
  });

  it("places an open group's members in rows under it, above the next band", () => {
    const p = layoutGraph(viewOf(model, new Set(['entities', 'rules:allowed'])), { maxPerRow: 3 });
    const entities = model.byId.get('entities')!.members!;
    expect(entities.length).toBe(8);
    const rows = new Set(entities.map((id) => p.get(id)!.y));
    expect(rows.size).toBe(3);
    for (const id of entities) {
      expect(p.get(id)!.y).toBeGreaterThan(p.get('entities')!.y);
      expect(p.get(id)!.y).toBeLessThan(p.get('rule:DISPUTE_WINDOW')!.y);
      expect(p.get(id)!.x).toBeGreaterThanOrEqual(p.get('entities')!.x);
    }
    expect(p.get('rule:ASK_CONTACT')!.y).toBeLessThan(p.get('decision')!.y);
    expectNoOverlap(p);
  });

  it('lays out a 5,000-rule trace with its biggest group and a chunk open, without overlaps', () => {
    const wide = traceToGraph(wideTrace(5000));
    const group = wide.groups.find((g) => g.id === 'rules:not-applicable')!;
    const closed = viewOf(wide, new Set());
    expect(closed.nodes.length).toBeLessThan(16);
    const chunk = `${group.id}/1-1600`;
    const open = viewOf(wide, new Set([group.id, chunk, `${group.id}/1-40`]));
    expect(open.nodes.length).toBeLessThanOrEqual(closed.nodes.length + 3 * FANOUT);
    const p = layoutGraph(open);
    expect(p.size).toBe(open.nodes.length);
    expectNoOverlap(p);
  });

  it('moves between nodes with arrow directions', () => {
    const p = layoutGraph(viewOf(model, new Set()));
    expect(neighbourInDirection(p, 'intent', 'down')).toBe('param:transaction-date');
    expect(neighbourInDirection(p, 'intent', 'up')).toBeUndefined();
    expect(neighbourInDirection(p, 'nope', 'up')).toBeUndefined();
    expect(neighbourInDirection(p, 'param:transaction-date', 'right')).toBe('params');
    let at = 'intent';
    for (let i = 0; i < 10; i += 1) at = neighbourInDirection(p, at, 'down') ?? at;
    expect(at).toBe('decision');
  });

  it('sizes the decision to its cause: a two-line cause does not run into the action under it', () => {
    const decision = model.byId.get('decision')!;
    expect(decision.label).toMatch(/^blocked by DISPUTE_WINDOW: /);
    const size = nodeSize(decision);
    // Header, two lines of 18 px, the action, padding and borders.
    expect(size.height).toBeGreaterThanOrEqual(16 + 2 * 18 + 16 + 8 + 4);
    expect(nodeSize({ ...decision, label: 'allowed' }).height).toBe(NODE_SIZE.decision.height);
    expect(nodeSize({ ...decision, label: 'x'.repeat(2000) }).height).toBe(16 + 3 * 18 + 16 + 8 + 4);
    const p = layoutGraph(viewOf(model, new Set()));
    expect(p.get('decision')!.height).toBe(size.height);
    expectNoOverlap(p);
  });

  it('keeps within a narrow width: groups that do not fit beside the path go in centred rows under it', () => {
    const maxWidth = 600;
    const p = layoutGraph(viewOf(model, new Set()), { maxWidth });
    for (const box of p.values()) {
      expect(box.x).toBeGreaterThanOrEqual(-maxWidth / 2);
      expect(box.x + box.width).toBeLessThanOrEqual(maxWidth / 2);
    }
    // Each band's groups lie between its path and the next band.
    for (const g of model.groups.filter((g) => g.memberKind === 'rule')) {
      expect(p.get(g.id)!.y).toBeGreaterThan(p.get('rule:DISPUTE_WINDOW')!.y);
      expect(p.get(g.id)!.y).toBeLessThan(p.get('decision')!.y);
    }
    const path = ['intent', 'param:transaction-date', 'rule:DISPUTE_WINDOW', 'decision'];
    for (const id of path) expect(centre(p.get(id))).toBe(0);
    expectNoOverlap(p);
    // Wide enough, the same groups stay beside the path.
    const wide = layoutGraph(viewOf(model, new Set()), { maxWidth: 4000 });
    for (const g of model.groups) expect(wide.get(g.id)!.x).toBeGreaterThan(0);
  });

  it('lays out for the box: everything framed within its width when it fits, else the compact layout and the path', () => {
    const view = viewOf(model, new Set());
    const path = ['intent', 'param:transaction-date', 'rule:DISPUTE_WINDOW', 'decision'];
    const all = view.nodes.map((n) => n.id).sort();
    // Wide and tall: everything, in its compact layout (groups beside the path).
    const roomy = layoutForBox(view, path, { width: 2000, height: 1200 }, 0.9, 0.04);
    expect([...roomy.framed].sort()).toEqual(all);
    for (const g of model.groups) expect(roomy.positions.get(g.id)!.x).toBeGreaterThan(0);
    // Narrow but tall enough: within the width, groups under the path, everything framed.
    const narrow = layoutForBox(view, path, { width: 600, height: 1200 }, 0.9, 0.04);
    expect([...narrow.framed].sort()).toEqual(all);
    for (const p of narrow.positions.values())
      expect(p.x + p.width - Math.min(...[...narrow.positions.values()].map((q) => q.x))).toBeLessThanOrEqual(
        600 / 1.04 / 0.9,
      );
    // Narrow and short: the compact layout, the causal path framed.
    const small = layoutForBox(view, path, { width: 600, height: 400 }, 0.9, 0.04);
    expect(small.framed).toEqual(path);
    for (const g of model.groups) expect(small.positions.get(g.id)!.x).toBeGreaterThan(0);
    // Unknown box: the compact layout, the path.
    expect(layoutForBox(view, path, undefined, 0.9, 0.04).framed).toEqual(path);
  });
});
