import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { blockedDisputeTrace, cardDisputesBlockedTrace } from './traces.fixture';
import { mentions, traceToGraph } from './trace-to-graph';

const ids = (t: Parameters<typeof traceToGraph>[0]) => traceToGraph(t).nodes.map((n) => n.id);

describe('traceToGraph', () => {
  it('puts the causal path first, everything else in groups, with stable content-derived ids', () => {
    const model = traceToGraph(blockedDisputeTrace);
    expect(model.path.map((n) => n.id)).toEqual([
      'intent',
      'param:transaction-date',
      'rule:dispute-window',
      'decision',
    ]);
    expect(model.groups.map((g) => [g.id, g.members])).toEqual([
      ['params', ['param:amount', 'param:merchant-name']],
      ['entities', ['entity:merchant', 'entity:amount']],
      ['rules:allowed', ['rule:amount-limit']],
      ['rules:not-applicable', ['rule:DISPUTE_CHARGE.confirm']],
      ['tools', ['tool:DISPUTE_CHARGE', 'tool:LOOKUP_TRANSACTION']],
    ]);
    for (const g of model.groups)
      for (const m of g.members ?? []) expect(model.byId.get(m)?.group, m).toBe(g.id);
  });

  it('names the deciding rule and its reason on the decision node', () => {
    const model = traceToGraph(cardDisputesBlockedTrace);
    const decision = model.byId.get('decision');
    expect(decision).toMatchObject({ tone: 'blocked', badge: 'blocked', sublabel: 'block_with_explanation' });
    expect(decision?.label).toBe('blocked by DISPUTE_WINDOW: days_since(transaction-date) = 10 > 8');
    // The path: the value the rule read, the rule (naming its tool), the decision.
    expect(model.path.map((n) => n.id)).toEqual([
      'intent',
      'param:transaction-date',
      'rule:DISPUTE_WINDOW',
      'decision',
    ]);
    expect(model.byId.get('rule:DISPUTE_WINDOW')?.sublabel).toBe('on DISPUTE_CHARGE');
    expect(model.edges.map((e) => e.id)).toEqual(
      expect.arrayContaining([
        'intent->param:transaction-date',
        'param:transaction-date->rule:DISPUTE_WINDOW',
        'rule:DISPUTE_WINDOW->decision',
        'rule:DISPUTE_WINDOW->tool:DISPUTE_CHARGE',
      ]),
    );
  });

  it('gives each result one tone: a missing-information check is not a block', () => {
    const { byId, edges } = traceToGraph(cardDisputesBlockedTrace);
    expect(byId.get('rule:DISPUTE_WINDOW')).toMatchObject({ tone: 'blocked', badge: 'blocked' });
    expect(byId.get('rule:DISPUTE_CHARGE.params.required')).toMatchObject({
      tone: 'info',
      badge: 'needs information',
      group: 'rules:needs-information',
    });
    expect(byId.get('rule:VERIFIED_IDENTITY_ABOVE_500')).toMatchObject({ tone: 'ok', badge: 'allowed' });
    expect(byId.get('rule:FREEZE_BEFORE_FRAUD_DISPUTE')).toMatchObject({
      tone: 'muted',
      badge: 'not applicable',
      dimmed: true,
    });
    expect(
      edges.some((e) => e.source === 'rule:DISPUTE_CHARGE.params.required' && e.target === 'decision'),
    ).toBe(false);
    const blocked = [...byId.values()].filter((n) => n.kind === 'rule' && n.tone === 'blocked');
    expect(blocked.map((n) => n.id)).toEqual(['rule:DISPUTE_WINDOW']);
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
    const rule = traceToGraph(t).byId.get('rule:r');
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
    const { byId } = traceToGraph(blockedDisputeTrace);
    const invoked = byId.get('tool:LOOKUP_TRANSACTION');
    expect(invoked).toMatchObject({ dimmed: false, badge: 'invoked', tone: 'ok' });
    expect(Object.fromEntries(invoked?.details ?? []).parameters).toEqual({ merchant: 'Coffee Corner' });
    expect(byId.get('tool:DISPUTE_CHARGE')).toMatchObject({ dimmed: true, badge: 'considered' });
  });

  it('without a deciding rule, the invoked tools and the values passed to them are the path', () => {
    const t = TolerantTrace.parse({
      intent: 'freeze_card',
      parameters_extracted: ['card', 'reason'],
      understanding: { extracted_params: { card: '4242', reason: 'lost' } },
      rules_evaluated: [{ rule_id: 'R', rule_type: 'policy', predicate: 'card', result: 'allowed' }],
      tools_considered: ['FREEZE_CARD'],
      tools_invoked: [{ tool: 'FREEZE_CARD', parameters: { card: '4242' }, result: 'success' }],
      decision: 'proceed',
    });
    const model = traceToGraph(t);
    expect(model.path.map((n) => n.id)).toEqual(['intent', 'param:card', 'tool:FREEZE_CARD', 'decision']);
    expect(model.byId.get('decision')?.label).toBe('proceed');
    expect(model.edges.map((e) => e.id)).toContain('tool:FREEZE_CARD->decision');
  });

  it('draws unknown values neutrally and shows them as they are; an `error` result is its own tone, neither blocked nor allowed', () => {
    const t = TolerantTrace.parse({
      intent: 'x',
      decision: 'escalate_to_human',
      rules_evaluated: [
        { rule_id: 'r1', rule_type: 'fraud', result: 'flagged' },
        { rule_id: 'r2', rule_type: 'policy', result: 'error', reason: 'cannot compare "abc" > 8' },
      ],
      tools_invoked: [{ tool: 'T', result: 'partial' }],
    });
    const { byId } = traceToGraph(t);
    expect(byId.get('decision')).toMatchObject({ label: 'escalate_to_human', tone: 'neutral' });
    expect(byId.get('rule:r1')).toMatchObject({ tone: 'neutral', badge: 'flagged', group: 'rules:other' });
    expect(byId.get('rule:r2')).toMatchObject({ tone: 'error', badge: 'error', group: 'rules:error' });
    expect(byId.get('rules:other')?.sublabel).toBe('flagged 1');
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
    expect(g.byId.get('entity:nested')?.sublabel).toBe('{"a":1}');
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
