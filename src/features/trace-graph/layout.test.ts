import { describe, expect, it } from 'vitest';
import { blockedDisputeTrace } from './fixtures';
import { layoutGraph, neighbourInDirection } from './layout';
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
  });

  it('moves between nodes with arrow directions', () => {
    const p = layoutGraph(traceToGraph(blockedDisputeTrace));
    const down = neighbourInDirection(p, 'intent', 'down');
    expect(down).toBeDefined();
    expect(p.get(down!)!.y).toBeGreaterThan(p.get('intent')!.y);
    expect(neighbourInDirection(p, 'intent', 'up')).toBeUndefined();
    expect(neighbourInDirection(p, 'nope', 'up')).toBeUndefined();
    const row = [...p.values()].filter((n) => n.y === p.get('param:amount')!.y).sort((a, b) => a.x - b.x);
    expect(row.length).toBeGreaterThan(1);
    const right = neighbourInDirection(p, row[0]!.id, 'right');
    expect(right).toBe(row[1]!.id);
    expect(neighbourInDirection(p, row.at(-1)!.id, 'right')).not.toBe(row[0]!.id);
  });
});
