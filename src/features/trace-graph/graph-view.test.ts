import { describe, expect, it } from 'vitest';
import { cardDisputesBlockedTrace, scaledTrace } from './traces.fixture';
import { FANOUT, groupsAround, nodeOf, viewOf } from './graph-view';
import { traceToGraph } from './trace-to-graph';
import { countVisits } from './count-visits.fixture';

describe('model building is linear', () => {
  it('visits about k× as many elements for a k× larger trace (2×, 4×, 8×)', () => {
    const base = 600;
    const work = (n: number) => {
      const trace = scaledTrace(n);
      return countVisits(() => traceToGraph(trace));
    };
    const w1 = work(base);
    for (const k of [2, 4, 8]) {
      const ratio = work(base * k) / w1;
      // Linear: ~k (a little more or less for the fixed parts); quadratic would be ~k².
      expect(ratio, `${k}× input`).toBeLessThan(k * 1.3);
    }
  });

  it('a view of the closed groups costs the same for 600 or 4,800 rules', () => {
    const small = traceToGraph(scaledTrace(600, 20));
    const large = traceToGraph(scaledTrace(4800, 20));
    const cost = (m: typeof small) =>
      countVisits(() => viewOf(m, new Set(['never-cached', String(Math.random())])));
    expect(cost(large)).toBeLessThan(cost(small) * 1.5 + 50);
  });
});

describe('viewOf (level of detail)', () => {
  const model = traceToGraph(cardDisputesBlockedTrace);

  it('draws the causal path and one node per group until a group is opened', () => {
    const view = viewOf(model, new Set());
    expect(view.nodes.map((n) => n.id)).toEqual([
      'intent',
      'param:transaction-date',
      'rule:DISPUTE_WINDOW',
      'decision',
      'params',
      'entities',
      'rules:needs-information',
      'rules:allowed',
      'rules:not-applicable',
      'tools',
    ]);
    expect(view.edges.map((e) => e.id)).toEqual(
      expect.arrayContaining(['intent->params', 'intent->tools', 'rule:DISPUTE_WINDOW->decision']),
    );
    for (const e of view.edges) {
      expect(view.nodes.some((n) => n.id === e.source)).toBe(true);
      expect(view.nodes.some((n) => n.id === e.target)).toBe(true);
    }
  });

  it('opening a group draws its members hanging from it, with their edges to drawn nodes', () => {
    const view = viewOf(model, new Set(['tools', 'rules:needs-information']));
    const ids = view.edges.map((e) => e.id);
    expect(ids).toContain('tools->tool:DISPUTE_CHARGE');
    expect(ids).toContain('rule:DISPUTE_WINDOW->tool:DISPUTE_CHARGE');
    expect(ids).toContain('rules:needs-information->rule:DISPUTE_CHARGE.params.required');
    expect(ids).toContain('param:transaction-date->rule:DISPUTE_CHARGE.params.required');
    expect(ids).not.toContain('intent->tool:DISPUTE_CHARGE');
  });

  it('memoises a view per model and set of open groups', () => {
    expect(viewOf(model, new Set(['tools', 'params']))).toBe(viewOf(model, new Set(['params', 'tools'])));
    expect(viewOf(model, new Set())).not.toBe(viewOf(model, new Set(['tools'])));
  });

  it('splits a group of thousands into chunks of at most FANOUT, down to the rules, and finds the way to any rule', () => {
    const big = traceToGraph(scaledTrace(5000));
    const allowed = big.groups.find((g) => g.id === 'rules:allowed')!;
    expect(allowed.members!.length).toBe(2474);
    const first = viewOf(big, new Set());
    // The path (intent, the first deciding rules and the values they read, the decision) and the groups.
    expect(first.nodes.length).toBeLessThan(24);
    const opened = viewOf(big, new Set([allowed.id]));
    const chunks = opened.edges.filter((e) => e.source === allowed.id).map((e) => e.target);
    expect(chunks).toEqual(['rules:allowed/1-1600', 'rules:allowed/1601-2474']);
    const label = (i: number) => big.byId.get(allowed.members![i]!)!.label;
    expect(nodeOf(big, chunks[0]!)).toMatchObject({
      kind: 'group',
      tone: 'ok',
      label: `${label(0)} … ${label(1599)}`,
    });
    const way = groupsAround(big, allowed.members![2000]!);
    expect(way).toEqual(['rules:allowed', 'rules:allowed/1601-2474', 'rules:allowed/2001-2040']);
    const deep = viewOf(big, new Set(way));
    expect(deep.nodes.some((n) => n.id === allowed.members![2000])).toBe(true);
    expect(deep.nodes.length).toBeLessThanOrEqual(first.nodes.length + 2 + 2 * FANOUT);
    expect(groupsAround(big, 'decision')).toEqual([]);
  });
});
