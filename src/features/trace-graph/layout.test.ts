import { describe, expect, it } from 'vitest';
import { blockedDisputeTrace } from './fixtures';
import {
  drawnEdges,
  layoutGraph,
  neighbourInDirection,
  WIDE_RULE_RANK,
  wrapWideRanks,
  type Positioned,
} from './layout';
import { traceToGraph } from './trace-to-graph';
import { TolerantTrace } from '../../contract/trace';

/** A trace like the engine's for a bundle of many global rules (and a few policy ones) on one tool. */
function wideTrace(rules: number) {
  return TolerantTrace.parse({
    interaction_id: 'msg_wide',
    intent: 'place_order',
    parameters_extracted: ['order-note'],
    entities: { note: 'gift wrap' },
    rules_evaluated: [
      ...Array.from({ length: rules }, (_, i) => ({
        rule_id: `GLOBAL_RULE_${i}`,
        rule_type: 'global',
        predicate: `order-note eq never-${i}`,
        result: i % 50 === 7 ? 'blocked' : 'not_applicable',
      })),
      {
        rule_id: 'P1',
        rule_type: 'policy',
        predicate: 'note present',
        result: 'allowed',
        reason: 'PLACE_ORDER may run',
      },
      { rule_id: 'P2', rule_type: 'policy', predicate: 'amount <= 10', result: 'allowed' },
    ],
    tools_considered: ['PLACE_ORDER', 'CANCEL_ORDER'],
    tools_invoked: [{ tool: 'PLACE_ORDER', parameters: { 'order-note': 'gift wrap' }, result: 'success' }],
    decision: 'block_with_explanation',
  });
}

function expectNoOverlap(positions: Map<string, Positioned>) {
  const boxes = [...positions.values()].sort((a, b) => a.y - b.y || a.x - b.x);
  // Sweep by y: only boxes whose vertical spans meet can overlap.
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

describe('layoutGraph', () => {
  it('is deterministic', () => {
    const a = [...layoutGraph(traceToGraph(blockedDisputeTrace)).values()];
    const b = [...layoutGraph(traceToGraph(structuredClone(blockedDisputeTrace))).values()];
    expect(a).toEqual(b);
  });

  it('places the stages top to bottom: intent above rules above the decision', () => {
    const p = layoutGraph(traceToGraph(blockedDisputeTrace));
    const y = (id: string) => p.get(id)?.y ?? NaN;
    expect(y('intent')).toBeLessThan(y('rules:policy'));
    expect(y('rules:policy')).toBeLessThan(y('rule:dispute-window'));
    expect(y('rule:dispute-window')).toBeLessThan(y('decision'));
    // a tool that only hangs from the intent still sits on the tools' rank, below the rules
    expect(y('tool:LOOKUP_TRANSACTION')).toBeGreaterThan(y('rule:dispute-window'));
    expect(y('tool:LOOKUP_TRANSACTION')).toBeLessThan(y('decision'));
  });

  it('wraps a wide rank onto rows and pushes the ranks below it down', () => {
    const box = (id: string, x: number, y: number): Positioned => ({ id, x, y, width: 100, height: 50 });
    const input = new Map<string, Positioned>([
      ['top', box('top', 250, 0)],
      ...['a', 'b', 'c', 'd', 'e'].map((id, i) => [id, box(id, i * 120, 100)] as [string, Positioned]),
      ['bottom', box('bottom', 250, 200)],
    ]);
    const out = wrapWideRanks(input, 2);
    const y = (id: string) => out.get(id)!.y;
    expect([y('a'), y('b')]).toEqual([100, 100]);
    expect([y('c'), y('d')]).toEqual([170, 170]);
    expect(y('e')).toBe(240);
    expect(y('bottom')).toBe(340);
    expect(y('top')).toBe(0);
    expect(out.get('a')!.x).toBeLessThan(out.get('b')!.x);
    // rows are centred on one axis
    expect(out.get('top')!.x + 50).toBe(0);
    expect(out.get('e')!.x + 50).toBe(0);
    expect(out.get('a')!.x + out.get('b')!.x + 100).toBe(0);
    // nothing overlaps
    const boxes = [...out.values()];
    for (const p of boxes)
      for (const q of boxes)
        if (p.id !== q.id)
          expect(
            p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y,
          ).toBe(true);
  });

  it('keeps ranks of a graph with many entities within the row limit', () => {
    const many = {
      ...blockedDisputeTrace,
      entities: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`e${i}`, i])),
    };
    const p = layoutGraph(traceToGraph(many), { maxPerRow: 4 });
    const perRow = new Map<number, number>();
    for (const n of p.values()) perRow.set(n.y, (perRow.get(n.y) ?? 0) + 1);
    expect(Math.max(...perRow.values())).toBeLessThanOrEqual(4);
    expect(p.get('intent')!.y).toBeLessThan(p.get('entity:e0')!.y);
    expect(p.get('entity:e11')!.y).toBeLessThan(p.get('decision')!.y);
  });

  it('moves between nodes with arrow directions', () => {
    const p = layoutGraph(traceToGraph(blockedDisputeTrace));
    const down = neighbourInDirection(p, 'intent', 'down');
    expect(down).toBeDefined();
    expect(p.get(down!)!.y).toBeGreaterThan(p.get('intent')!.y);
    expect(neighbourInDirection(p, 'intent', 'up')).toBeUndefined();
    expect(neighbourInDirection(p, 'nope', 'up')).toBeUndefined();
    const rows = new Map<number, Positioned[]>();
    for (const n of p.values()) rows.set(n.y, [...(rows.get(n.y) ?? []), n]);
    const row = [...rows.values()].find((r) => r.length > 1)!.sort((a, b) => a.x - b.x);
    expect(row.length).toBeGreaterThan(1);
    const right = neighbourInDirection(p, row[0]!.id, 'right');
    expect(right).toBe(row[1]!.id);
    expect(neighbourInDirection(p, row.at(-1)!.id, 'right')).not.toBe(row[0]!.id);
  });

  describe('a wide rule rank (hundreds of rules in one rank)', () => {
    const model = traceToGraph(wideTrace(480));

    it('places every node of the model, deterministically', () => {
      const a = layoutGraph(model);
      const b = layoutGraph(traceToGraph(structuredClone(wideTrace(480))));
      expect([...a.keys()].sort()).toEqual(model.nodes.map((n) => n.id).sort());
      expect([...a.values()]).toEqual([...b.values()]);
      expect(model.nodes.filter((n) => n.kind === 'rule').length).toBeGreaterThan(WIDE_RULE_RANK);
    });

    it('overlaps no nodes and keeps rows within the limit', () => {
      for (const maxPerRow of [1, 4, 7]) {
        const p = layoutGraph(model, { maxPerRow });
        expectNoOverlap(p);
        const perRow = new Map<number, number>();
        for (const n of p.values()) perRow.set(n.y, (perRow.get(n.y) ?? 0) + 1);
        expect(Math.max(...perRow.values())).toBeLessThanOrEqual(maxPerRow);
      }
    });

    it("keeps the stages top to bottom and each group's rules together, in model order", () => {
      const p = layoutGraph(model);
      const y = (id: string) => p.get(id)!.y;
      const rules = model.nodes.filter((n) => n.kind === 'rule');
      const top = Math.min(...rules.map((r) => y(r.id)));
      const bottom = Math.max(...rules.map((r) => y(r.id)));
      expect(y('intent')).toBeLessThan(y('param:order-note'));
      expect(y('param:order-note')).toBeLessThan(y('rules:global'));
      expect(y('rules:global')).toBeLessThan(top);
      expect(bottom).toBeLessThan(y('tool:PLACE_ORDER'));
      expect(y('tool:PLACE_ORDER')).toBeLessThan(y('decision'));
      // Reading order (row by row, left to right) lists each group's rules as a run, in model order.
      const reading = rules
        .map((r) => p.get(r.id)!)
        .sort((a, b) => a.y - b.y || a.x - b.x)
        .map((q) => q.id);
      const globals = reading.filter((id) => id.startsWith('rule:GLOBAL_RULE_'));
      expect(globals).toEqual(rules.filter((r) => r.id.startsWith('rule:GLOBAL_RULE_')).map((r) => r.id));
      const firstGlobal = reading.indexOf(globals[0]!);
      expect(reading.slice(firstGlobal, firstGlobal + globals.length)).toEqual(globals);
    });

    it('lets arrow keys reach the rules below a group and the tools below the rules', () => {
      const p = layoutGraph(model);
      const down =
        neighbourInDirection(p, 'rules:global', 'down') ?? neighbourInDirection(p, 'rules:policy', 'down');
      expect(down?.startsWith('rule:')).toBe(true);
      let at = 'intent';
      for (let i = 0; i < 200; i += 1) {
        const next = neighbourInDirection(p, at, 'down');
        if (!next) break;
        at = next;
      }
      expect(at).toBe('decision');
    });

    it('lays a rank just over the threshold out like one far over it (no overlaps, all placed)', () => {
      const p = layoutGraph(traceToGraph(wideTrace(WIDE_RULE_RANK)));
      expect(p.size).toBe(traceToGraph(wideTrace(WIDE_RULE_RANK)).nodes.length);
      expectNoOverlap(p);
    });
  });

  describe('drawnEdges', () => {
    it('keeps every edge of a small graph', () => {
      const model = traceToGraph(blockedDisputeTrace);
      expect(drawnEdges(model)).toBe(model.edges);
    });

    it('keeps one edge per group into a wide rule rank, and every other edge', () => {
      const model = traceToGraph(wideTrace(480));
      const drawn = drawnEdges(model);
      const fan = (e: { source: string }) => e.source.startsWith('rules:');
      const toRule = (e: { target: string }) => e.target.startsWith('rule:');
      expect(drawn.filter((e) => fan(e) && toRule(e)).map((e) => e.target)).toEqual([
        'rule:GLOBAL_RULE_0',
        'rule:P1',
      ]);
      expect(drawn.filter((e) => !(fan(e) && toRule(e)))).toEqual(
        model.edges.filter((e) => !(fan(e) && toRule(e))),
      );
      // the blocked rules still lead to the decision
      expect(drawn.some((e) => e.source === 'rule:GLOBAL_RULE_7' && e.target === 'decision')).toBe(true);
    });
  });
});
