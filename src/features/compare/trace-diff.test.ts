import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { countDifferences, diffTraces, highlightFor, sameValue } from './trace-diff';

const rule = (rule_id: string, result: string, predicate = 'p', reason = 'r', rule_type = 'policy') => ({
  rule_id,
  rule_type,
  predicate,
  result,
  reason,
});

/** The card-disputes turn, blocked by an 8-day window. */
const blocked = TolerantTrace.parse({
  interaction_id: 'm1',
  intent: 'dispute_charge',
  entities: { transaction: 'tx-1001' },
  parameters_extracted: ['transaction-date'],
  rules_evaluated: [
    rule(
      'dispute-window',
      'blocked',
      'days_since(transaction-date) > 8',
      'days_since(transaction-date) = 10 > 8',
    ),
    rule('card-owner', 'allowed', 'user-profile.verified = true', 'verified', 'authentication'),
  ],
  tools_considered: ['DISPUTE_CHARGE'],
  tools_invoked: [],
  decision: 'block_with_explanation',
  understanding: { intents: ['dispute_charge'], extracted_params: { 'transaction-date': '2025-01-01' } },
});

/** The same turn rerun with a 30-day window. */
const allowed = TolerantTrace.parse({
  interaction_id: 'm2',
  intent: 'dispute_charge',
  entities: { transaction: 'tx-1001', dispute: 'd-1' },
  parameters_extracted: ['transaction-date', 'dispute-reason'],
  rules_evaluated: [
    rule(
      'dispute-window',
      'not_applicable',
      'days_since(transaction-date) > 30',
      'days_since(transaction-date) = 10, not > 30',
    ),
    rule('card-owner', 'allowed', 'user-profile.verified = true', 'verified', 'authentication'),
    rule('DISPUTE_CHARGE.confirm', 'allowed', 'confirmed', 'confirmed', 'confirmation'),
  ],
  tools_considered: ['DISPUTE_CHARGE'],
  tools_invoked: [{ tool: 'file-dispute', parameters: { 'transaction-id': 'tx-1001' }, result: 'success' }],
  decision: 'proceed',
  understanding: {
    intents: ['dispute_charge'],
    extracted_params: { 'transaction-date': '2025-01-01', 'dispute-reason': 'fraud' },
  },
});

describe('diffTraces', () => {
  it("finds the decision change and the policy rule flipping, with both sides' predicate and reason", () => {
    const d = diffTraces(blocked, allowed);
    expect(d.changed).toBe(true);
    expect(d.decision).toEqual({ a: 'block_with_explanation', b: 'proceed', changed: true });
    expect(d.intent.changed).toBe(false);
    expect(d.rulesFlipped).toEqual([
      {
        rule_id: 'dispute-window',
        rule_type: 'policy',
        a: {
          result: 'blocked',
          predicate: 'days_since(transaction-date) > 8',
          reason: 'days_since(transaction-date) = 10 > 8',
        },
        b: {
          result: 'not_applicable',
          predicate: 'days_since(transaction-date) > 30',
          reason: 'days_since(transaction-date) = 10, not > 30',
        },
      },
    ]);
    expect(d.rulesOnlyA).toEqual([]);
    expect(d.rulesOnlyB.map((r) => r.rule_id)).toEqual(['DISPUTE_CHARGE.confirm']);
    expect(d.toolsAdded).toEqual(['file-dispute']);
    expect(d.toolsRemoved).toEqual([]);
    expect(d.paramsAdded).toEqual(['dispute-reason']);
    expect(d.paramsRemoved).toEqual([]);
    expect(d.paramValues).toEqual([{ key: 'dispute-reason', a: undefined, b: 'fraud' }]);
    expect(d.entities).toEqual([{ key: 'dispute', a: undefined, b: 'd-1' }]);
  });

  it('is symmetric in what it reports', () => {
    const d = diffTraces(allowed, blocked);
    expect(d.rulesFlipped[0]?.a.result).toBe('not_applicable');
    expect(d.rulesOnlyA.map((r) => r.rule_id)).toEqual(['DISPUTE_CHARGE.confirm']);
    expect(d.toolsRemoved).toEqual(['file-dispute']);
    expect(d.paramsRemoved).toEqual(['dispute-reason']);
  });

  it('reports nothing for identical traces', () => {
    const d = diffTraces(blocked, structuredClone(blocked));
    expect(d.changed).toBe(false);
    expect(countDifferences(d)).toBe(0);
  });

  it('tells a reworded rule (same result) from a flipped one', () => {
    const a = TolerantTrace.parse({ rules_evaluated: [rule('r1', 'allowed', 'x > 8')] });
    const b = TolerantTrace.parse({ rules_evaluated: [rule('r1', 'allowed', 'x > 30')] });
    const d = diffTraces(a, b);
    expect(d.rulesFlipped).toEqual([]);
    expect(d.rulesReworded.map((r) => [r.a.predicate, r.b.predicate])).toEqual([['x > 8', 'x > 30']]);
  });

  it('matches repeated evaluations of one rule by occurrence and repeated tool calls as a multiset', () => {
    const a = TolerantTrace.parse({
      rules_evaluated: [rule('r', 'allowed'), rule('r', 'blocked')],
      tools_invoked: [
        { tool: 'api', parameters: {}, result: 'success' },
        { tool: 'api', parameters: {}, result: 'success' },
      ],
    });
    const b = TolerantTrace.parse({
      rules_evaluated: [rule('r', 'allowed')],
      tools_invoked: [{ tool: 'api', parameters: {}, result: 'failure' }],
    });
    const d = diffTraces(a, b);
    expect(d.rulesFlipped).toEqual([]);
    expect(d.rulesOnlyA.map((r) => r.side.result)).toEqual(['blocked']);
    expect(d.toolsRemoved).toEqual(['api']);
    expect(d.toolsChanged.map((t) => [t.a.result, t.b.result])).toEqual([['success', 'failure']]);
  });

  it('treats a missing trace as empty', () => {
    const d = diffTraces(null, blocked);
    expect(d.decision).toEqual({ a: null, b: 'block_with_explanation', changed: true });
    expect(d.rulesOnlyB).toHaveLength(2);
    expect(diffTraces(undefined, undefined).changed).toBe(false);
  });

  it('keeps unknown values as they are', () => {
    const a = TolerantTrace.parse({ decision: 'escalate_to_human' });
    const b = TolerantTrace.parse({ decision: 'proceed' });
    expect(diffTraces(a, b).decision.a).toBe('escalate_to_human');
  });
});

describe('highlightFor', () => {
  it('maps a diff onto the graph node ids of each side', () => {
    const d = diffTraces(blocked, allowed);
    expect(highlightFor(d, 'a')).toEqual({
      decision: 'changed',
      'rule:dispute-window': 'changed',
      'rules:policy': 'changed',
    });
    expect(highlightFor(d, 'b')).toEqual({
      decision: 'changed',
      'rule:dispute-window': 'changed',
      'rule:DISPUTE_CHARGE.confirm': 'added',
      'rules:policy': 'changed',
      'rules:confirmation': 'changed',
      'tool:file-dispute': 'added',
      'param:dispute-reason': 'added',
      'entity:dispute': 'added',
    });
  });

  it('marks removals on A and changed values on both sides', () => {
    const a = TolerantTrace.parse({
      intent: 'x',
      entities: { card: '1', old: 'z' },
      parameters_extracted: ['amount'],
    });
    const b = TolerantTrace.parse({ intent: 'y', entities: { card: '2' } });
    const d = diffTraces(a, b);
    expect(highlightFor(d, 'a')).toEqual({
      intent: 'changed',
      'entity:card': 'changed',
      'entity:old': 'removed',
      'param:amount': 'removed',
    });
    expect(highlightFor(d, 'b')).toEqual({ intent: 'changed', 'entity:card': 'changed' });
  });

  it('an entity named like a prototype member on one side only is added, not changed', () => {
    const a = TolerantTrace.parse({ intent: 'x', entities: {} });
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const b = TolerantTrace.parse({ intent: 'x', entities: JSON.parse(`{"${name}": 5}`) as unknown });
      expect(highlightFor(diffTraces(a, b), 'b')).toEqual({ [`entity:${name}`]: 'added' });
    }
  });

  it('is empty when nothing differs', () => {
    expect(highlightFor(diffTraces(blocked, blocked), 'a')).toEqual({});
  });
});

describe('sameValue', () => {
  it('ignores key order and compares deeply', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameValue([1], { 0: 1 })).toBe(false);
    expect(sameValue(NaN, NaN)).toBe(true);
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
  });
});
