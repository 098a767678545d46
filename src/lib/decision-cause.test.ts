import { describe, expect, it } from 'vitest';
import { briefReason, decisionCause } from './decision-cause';
import { ruleTone } from './trace-tones';

const rule = (rule_id: string, result: string, reason = '', predicate = '') => ({
  rule_id,
  rule_type: 'policy',
  predicate,
  result,
  reason,
});

describe('decisionCause', () => {
  it('names the blocking rule and its reason in one line, not the missing-information check', () => {
    const cause = decisionCause({
      decision: 'block_with_explanation',
      rules_evaluated: [
        rule('DISPUTE_CHARGE.params.required', 'blocked', 'missing dispute-reason; have amount = 120'),
        rule(
          'DISPUTE_WINDOW',
          'blocked',
          'days_since(transaction-date) is 10 (transaction-date = "2026-11-13"), so days_since(transaction-date) > 8 holds',
        ),
      ],
    });
    expect(cause?.sentence).toBe('blocked by DISPUTE_WINDOW: days_since(transaction-date) = 10 > 8');
    expect(cause?.because).toBe('by DISPUTE_WINDOW: days_since(transaction-date) = 10 > 8');
    expect(cause?.ruleIndices).toEqual([1]);
  });

  it('puts the rule the trace names as the block first and counts the others', () => {
    const cause = decisionCause({
      decision: 'block_with_explanation',
      rules_evaluated: [rule('A', 'blocked', 'a'), rule('B', 'blocked', 'b'), rule('C', 'blocked', 'c')],
      decisions: [{ type: 'block', rule: 'B' }],
    });
    expect(cause?.ruleIndices).toEqual([1, 0, 2]);
    expect(cause?.sentence).toBe('blocked by B and 2 more: b');
  });

  it('a question is caused by the missing-information check, a confirmation by the rule asking for it', () => {
    expect(
      decisionCause({
        decision: 'request_information',
        rules_evaluated: [rule('X.params.required', 'blocked', 'missing contact-email; have amount = 1')],
      })?.sentence,
    ).toBe('needs information from X.params.required: missing contact-email');
    expect(
      decisionCause({
        decision: 'request_confirmation',
        rules_evaluated: [rule('X.requires_confirmation', 'requires_confirmation', 'not given yet')],
      })?.sentence,
    ).toBe('needs confirmation from X.requires_confirmation: not given yet');
  });

  it('has no cause when no rule decided (proceed, unknown decisions, nothing matching)', () => {
    expect(decisionCause({ decision: 'proceed', rules_evaluated: [rule('A', 'allowed')] })).toBeNull();
    expect(decisionCause({ decision: 'escalate', rules_evaluated: [rule('A', 'blocked')] })).toBeNull();
    expect(decisionCause({ decision: 'block_with_explanation', rules_evaluated: [] })).toBeNull();
    expect(decisionCause({ decision: '', rules_evaluated: [] })).toBeNull();
  });
});

describe('briefReason', () => {
  it('keeps other reasons up to their first ";" and cuts long ones', () => {
    expect(briefReason('contact-email is empty; contact-phone is empty')).toBe('contact-email is empty');
    expect(briefReason('x is 1, so y > 2 holds')).toBe('x is 1, so y > 2 holds');
    expect(briefReason('a'.repeat(500))).toHaveLength(140);
  });
});

describe('ruleTone', () => {
  it('gives each result one tone; a missing-information check needs information', () => {
    expect(ruleTone(rule('A', 'blocked'))).toBe('blocked');
    expect(ruleTone(rule('T.params.required', 'blocked'))).toBe('info');
    expect(ruleTone(rule('T.params.required', 'allowed'))).toBe('ok');
    expect(ruleTone(rule('A', 'requires_confirmation'))).toBe('confirm');
    expect(ruleTone(rule('A', 'not_applicable'))).toBe('muted');
    expect(ruleTone(rule('A', 'error'))).toBe('error');
  });
});
