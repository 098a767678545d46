import { describe, expect, it } from 'vitest';
import { compareTurn, describeMismatch, type ObservedTurn } from './compare';

const observed: ObservedTurn = {
  reply: 'Sorry, a charge can only be disputed within 8 days.',
  trace: {
    decision: 'block_with_explanation',
    rules_evaluated: [
      { rule_id: 'DISPUTE_WINDOW', result: 'blocked', reason: 'days_since(transaction-date) is 10' },
      { rule_id: 'ASK_CONTACT', result: 'allowed', reason: 'contact-email is empty' },
    ],
    tools_invoked: [{ tool: 'FREEZE_CARD', result: 'success' }],
    entities: {
      'transaction.transaction-amount': 120,
      'transaction.transaction-date': '2025-03-05',
      'a.shared': 1,
      'b.shared': 2,
      plain: { x: 1, y: [2] },
    },
  },
};

describe('compareTurn', () => {
  it('passes when every expectation holds', () => {
    expect(
      compareTurn(
        {
          decision: 'block_with_explanation',
          rules: { DISPUTE_WINDOW: 'blocked' },
          tools_invoked: ['FREEZE_CARD'],
          parameters: {
            'transaction-amount': 120,
            'a.shared': 1,
            plain: { y: [2], x: 1 },
            'contact-email': null,
          },
          reply_contains: ['within 8 days'],
        },
        observed,
      ),
    ).toEqual([]);
  });

  it('reports another decision', () => {
    const [m] = compareTurn({ decision: 'proceed' }, observed);
    expect(m).toEqual({
      kind: 'decision',
      subject: '',
      expected: 'proceed',
      actual: 'block_with_explanation',
    });
    expect(describeMismatch(m!)).toBe('decision: expected proceed, got block_with_explanation');
  });

  it('reports a rule with another result (with the reason) and a rule not evaluated', () => {
    const ms = compareTurn(
      { decision: 'block_with_explanation', rules: { DISPUTE_WINDOW: 'allowed', MISSING: 'blocked' } },
      observed,
    );
    expect(ms).toEqual([
      {
        kind: 'rule',
        subject: 'DISPUTE_WINDOW',
        expected: 'allowed',
        actual: 'blocked',
        reason: 'days_since(transaction-date) is 10',
      },
      { kind: 'rule', subject: 'MISSING', expected: 'blocked', actual: 'not evaluated' },
    ]);
    expect(describeMismatch(ms[0]!)).toBe(
      'rule DISPUTE_WINDOW: expected allowed, got blocked (days_since(transaction-date) is 10)',
    );
  });

  it('expects exactly the tools invoked: a missing one and an unexpected one; [] means none', () => {
    const ms = compareTurn(
      { decision: 'block_with_explanation', tools_invoked: ['DISPUTE_CHARGE'] },
      observed,
    );
    expect(ms.map(describeMismatch)).toEqual([
      'tool DISPUTE_CHARGE: expected invoked, not invoked (invoked: FREEZE_CARD)',
      'tool FREEZE_CARD: expected not invoked, invoked',
    ]);
    expect(compareTurn({ decision: 'block_with_explanation', tools_invoked: [] }, observed)).toHaveLength(1);
  });

  it('reports parameter values by value, unfilled ones, and an ambiguous bare name', () => {
    const ms = compareTurn(
      {
        decision: 'block_with_explanation',
        parameters: {
          'transaction-amount': 45,
          'dispute-reason': 'duplicate',
          shared: 1,
          'transaction-date': null,
        },
      },
      observed,
    );
    expect(ms.map(describeMismatch)).toEqual([
      'parameter transaction-amount: expected 45, got 120',
      'parameter dispute-reason: expected "duplicate", got not filled',
      'parameter shared: expected 1, got ambiguous: held by a.shared, b.shared (name one of them)',
      'parameter transaction-date: expected not filled, got "2025-03-05"',
    ]);
  });

  it('reports a reply missing a text (case-sensitive)', () => {
    const ms = compareTurn(
      { decision: 'block_with_explanation', reply_contains: ['8 days', 'SORRY'] },
      observed,
    );
    expect(ms).toHaveLength(1);
    expect(describeMismatch(ms[0]!)).toBe(
      'reply: expected to contain "SORRY", got "Sorry, a charge can only be disputed within 8 days."',
    );
  });
});
