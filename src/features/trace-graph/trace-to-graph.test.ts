import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { blockedDisputeTrace } from './fixtures';
import { mentions, traceToGraph } from './trace-to-graph';

const ids = (t: Parameters<typeof traceToGraph>[0]) => traceToGraph(t).nodes.map((n) => n.id);

describe('traceToGraph', () => {
  it('builds the stages with stable, content-derived ids', () => {
    expect(ids(blockedDisputeTrace)).toEqual([
      'intent',
      'param:amount',
      'param:merchant-name',
      'param:transaction-date',
      'entity:merchant',
      'entity:amount',
      'rule:dispute-window',
      'rule:amount-limit',
      'rule:DISPUTE_CHARGE.confirm',
      'rules:policy',
      'rules:confirmation',
      'tool:DISPUTE_CHARGE',
      'tool:LOOKUP_TRANSACTION',
      'decision',
    ]);
  });

  it('shows a rule that could not be evaluated in the error tone, and its group with it', () => {
    const trace = TolerantTrace.parse({
      ...blockedDisputeTrace,
      rules_evaluated: blockedDisputeTrace.rules_evaluated.map((r) =>
        r.rule_id === 'amount-limit'
          ? { ...r, result: 'error', reason: 'could not be evaluated: "thirty" is not a number' }
          : r,
      ),
    });
    const byId = new Map(traceToGraph(trace).nodes.map((n) => [n.id, n]));
    expect(byId.get('rule:amount-limit')).toMatchObject({ tone: 'error', badge: 'error', dimmed: false });
    expect(byId.get('rules:policy')?.tone).toBe('error');
  });

  it('colours rules by result and groups by their worst result', () => {
    const { nodes } = traceToGraph(blockedDisputeTrace);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(byId.get('rule:dispute-window')).toMatchObject({ tone: 'blocked', badge: 'blocked' });
    expect(byId.get('rule:amount-limit')?.tone).toBe('ok');
    expect(byId.get('rule:DISPUTE_CHARGE.confirm')).toMatchObject({ tone: 'muted', dimmed: true });
    expect(byId.get('rules:policy')).toMatchObject({
      tone: 'blocked',
      sublabel: '1 blocked, 1 allowed',
      badge: '2 rules',
    });
    expect(byId.get('decision')).toMatchObject({
      label: 'blocked',
      tone: 'blocked',
      sublabel: 'block_with_explanation',
    });
  });

  it('keeps the rule details for the inspector: predicate, result, reason, and unknown fields', () => {
    const t = TolerantTrace.parse({
      rules_evaluated: [
        {
          rule_id: 'r',
          rule_type: 'policy',
          predicate: 'p',
          result: 'blocked',
          reason: 'why',
          severity: 'high',
        },
      ],
    });
    const rule = traceToGraph(t).nodes.find((n) => n.id === 'rule:r');
    expect(Object.fromEntries(rule?.details ?? [])).toEqual({
      rule_id: 'r',
      rule_type: 'policy',
      predicate: 'p',
      result: 'blocked',
      reason: 'why',
      severity: 'high',
    });
  });

  it('marks invoked tools with their parameters and dims considered ones', () => {
    const { nodes } = traceToGraph(blockedDisputeTrace);
    const invoked = nodes.find((n) => n.id === 'tool:LOOKUP_TRANSACTION');
    const considered = nodes.find((n) => n.id === 'tool:DISPUTE_CHARGE');
    expect(invoked).toMatchObject({ dimmed: false, badge: 'invoked', tone: 'ok' });
    expect(Object.fromEntries(invoked?.details ?? []).parameters).toEqual({ merchant: 'Coffee Corner' });
    expect(considered).toMatchObject({ dimmed: true, badge: 'considered' });
  });

  it('links by content: params → the rule groups that mention them, rules → tools they name, deciding rules → decision', () => {
    const { edges } = traceToGraph(blockedDisputeTrace);
    const e = new Set(edges.map((x) => x.id));
    expect(e.has('param:transaction-date->rules:policy')).toBe(true);
    expect(e.has('param:amount->rules:policy')).toBe(true);
    expect(e.has('rules:policy->rule:dispute-window')).toBe(true);
    expect(e.has('rule:DISPUTE_CHARGE.confirm->tool:DISPUTE_CHARGE')).toBe(true);
    expect(e.has('intent->tool:LOOKUP_TRANSACTION')).toBe(true);
    expect(e.has('rule:dispute-window->decision')).toBe(true);
    expect(e.has('tool:LOOKUP_TRANSACTION->decision')).toBe(true);
    expect(e.has('rule:amount-limit->decision')).toBe(false);
    // every edge joins existing nodes, and every node but the intent is reachable
    const nodeIds = new Set(traceToGraph(blockedDisputeTrace).nodes.map((n) => n.id));
    for (const x of edges) expect(nodeIds.has(x.source) && nodeIds.has(x.target)).toBe(true);
    const targets = new Set(edges.map((x) => x.target));
    for (const id of nodeIds) if (id !== 'intent') expect(targets.has(id)).toBe(true);
  });

  it('draws unknown enum values neutrally and shows them as they are', () => {
    const t = TolerantTrace.parse({
      intent: 'x',
      decision: 'escalate_to_human',
      rules_evaluated: [{ rule_id: 'r1', rule_type: 'fraud', result: 'flagged' }],
      tools_invoked: [{ tool: 'T', result: 'partial' }],
    });
    const byId = new Map(traceToGraph(t).nodes.map((n) => [n.id, n]));
    expect(byId.get('decision')).toMatchObject({ label: 'escalate_to_human', tone: 'neutral' });
    expect(byId.get('rule:r1')).toMatchObject({ tone: 'neutral', badge: 'flagged' });
    expect(byId.get('rules:fraud')?.label).toBe('fraud rules');
    expect(byId.get('tool:T')).toMatchObject({ tone: 'neutral', sublabel: 'partial' });
  });

  it('survives an empty trace and missing fields', () => {
    const g = traceToGraph(TolerantTrace.parse({}));
    expect(g.nodes.map((n) => n.id)).toEqual(['intent', 'decision']);
    expect(g.nodes[0]).toMatchObject({ label: 'no intent', dimmed: true });
    expect(g.edges).toEqual([{ id: 'intent->decision', source: 'intent', target: 'decision' }]);
  });

  it('survives wrong types inside a loosely parsed trace and keeps unknown top-level fields', () => {
    const weird = {
      ...TolerantTrace.parse({ intent: 'x' }),
      entities: { nested: { a: 1 } },
      custom_field: [1, 2],
    } as Parameters<typeof traceToGraph>[0];
    const g = traceToGraph(weird);
    expect(g.nodes.find((n) => n.id === 'entity:nested')?.sublabel).toBe('{"a":1}');
    expect(Object.fromEntries(g.nodes[0]?.details ?? []).custom_field).toEqual([1, 2]);
  });

  it('gives repeated ids a suffix instead of colliding', () => {
    const t = TolerantTrace.parse({
      rules_evaluated: [
        { rule_id: 'same', rule_type: 'policy', result: 'allowed' },
        { rule_id: 'same', rule_type: 'policy', result: 'blocked' },
        { rule_type: 'policy' },
      ],
      tools_invoked: [{ tool: 'api' }, { tool: 'api' }],
    });
    const list = ids(t);
    expect(list).toContain('rule:same');
    expect(list).toContain('rule:same#2');
    expect(list).toContain('rule:(unnamed)');
    expect(list.filter((i) => i === 'tool:api')).toHaveLength(1);
    expect(new Set(list).size).toBe(list.length);
  });
});

describe('mentions', () => {
  it('matches whole tokens only', () => {
    expect(mentions('days_since(transaction-date) <= 7', 'transaction-date')).toBe(true);
    expect(mentions('transaction-date-2', 'transaction-date')).toBe(false);
    expect(mentions('amount <= 5000', 'amount')).toBe(true);
    expect(mentions('amounts', 'amount')).toBe(false);
    expect(mentions('anything', '')).toBe(false);
  });
});
