import { describe, expect, it } from 'vitest';
import { blockedDisputeTrace } from './fixtures';
import { layoutGraph, neighbourInDirection, wrapWideRanks, type Positioned } from './layout';
import { traceToGraph } from './trace-to-graph';

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
        if (p.id !== q.id) expect(p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y).toBe(true);
  });

  it('keeps ranks of a graph with many entities within the row limit', () => {
    const many = { ...blockedDisputeTrace, entities: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`e${i}`, i])) };
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
});
