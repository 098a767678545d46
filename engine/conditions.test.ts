import { describe, expect, it } from 'vitest';
import type { Bundle, Condition } from '../src/contract/bundle';
import { parseClock } from './clock';
import { compileBundle } from './compile';
import { evaluateCondition, renderCondition } from './conditions';

const bundle: Bundle = {
  parameters: [
    { code: 'amount', type: 'numeric' },
    { code: 'tx-date', type: 'date' },
    { code: 'tier', type: 'enum', values: ['Gold', 'Platinum'] },
    { code: 'verified', type: 'boolean' },
    { code: 'email', type: 'string' },
    { code: 'phone', type: 'string' },
  ],
  entities: [{ name: 'me', type: 'user-profile', parameters: ['tier', 'verified'] }],
};
const compiled = compileBundle(bundle);
const ctx = (values: Record<string, unknown>, current: Record<string, unknown> = {}) => ({
  compiled,
  values,
  current,
  message: 'my card was stolen yesterday',
  clock: parseClock('2025-03-15T12:00:00Z'),
});
const leaf = (params: unknown, operation: string, value?: unknown): Condition => ({
  method: 'param_value',
  params: params as string,
  operation,
  value: value as never,
});

describe('conditions', () => {
  it('renders readable predicates', () => {
    expect(renderCondition(leaf('tx-date', 'more_than_x_days', 8))).toBe('days_since(tx-date) > 8');
    expect(
      renderCondition({
        all: [
          leaf('amount', 'gt', 500),
          {
            method: 'entity_param',
            params: { entity: 'me', param: 'tier' },
            operation: 'neq',
            value: 'Gold',
          },
        ],
      }),
    ).toBe('amount > 500 and me.tier != "Gold"');
    expect(
      renderCondition({ any: [leaf('email', 'is_empty'), { not: leaf('amount', 'between', [1, 5]) }] }),
    ).toBe('empty(email) or not amount between 1 and 5');
    expect(renderCondition(null)).toBe('always');
  });

  it('compares numbers, dates, enums and booleans', () => {
    expect(evaluateCondition(leaf('amount', 'gt', 500), ctx({ amount: 620 })).holds).toBe(true);
    expect(evaluateCondition(leaf('amount', 'between', [100, 200]), ctx({ amount: 150 })).holds).toBe(true);
    expect(evaluateCondition(leaf('tier', 'eq', 'platinum'), ctx({ tier: 'Platinum' })).holds).toBe(true);
    expect(evaluateCondition(leaf('tier', 'eq', ['Gold', 'Silver']), ctx({ tier: 'Platinum' })).holds).toBe(
      false,
    );
    expect(evaluateCondition(leaf('verified', 'eq', false), ctx({ verified: false })).holds).toBe(true);
    expect(
      evaluateCondition(leaf('tx-date', 'lt', '2025-03-10'), ctx({ 'tx-date': '2025-03-01' })).holds,
    ).toBe(true);
    expect(
      evaluateCondition(leaf('amount', 'gte', { ref: 'limit' }), ctx({ amount: 5, limit: 5 })).holds,
    ).toBe(true);
  });

  it('day operations count whole days back from the clock', () => {
    const r = evaluateCondition(leaf('tx-date', 'more_than_x_days', 8), ctx({ 'tx-date': '2025-03-05' }));
    expect(r).toMatchObject({ holds: true, known: true });
    expect(r.reason).toContain('is 10');
    expect(
      evaluateCondition(leaf('tx-date', 'exactly_x_days', 10), ctx({ 'tx-date': '2025-03-05' })).holds,
    ).toBe(true);
    expect(
      evaluateCondition(leaf('tx-date', 'less_than_x_days', 10), ctx({ 'tx-date': '2025-03-05' })).holds,
    ).toBe(false);
  });

  it('a missing value makes a comparison unknown and false, and says so', () => {
    const r = evaluateCondition(leaf('amount', 'gt', 500), ctx({}));
    expect(r).toMatchObject({ holds: false, known: false });
    expect(r.reason).toBe('amount is not known yet');
  });

  it('any_have_value / all_have_value read several parameters', () => {
    expect(evaluateCondition(leaf(['email', 'phone'], 'any_have_value'), ctx({ phone: '555' })).holds).toBe(
      true,
    );
    expect(evaluateCondition(leaf(['email', 'phone'], 'all_have_value'), ctx({ phone: '555' })).holds).toBe(
      false,
    );
  });

  it('param_extracted_current reads only this message, and about compares words', () => {
    const c = { method: 'param_extracted_current', params: 'amount', operation: 'is_not_empty' } as Condition;
    expect(evaluateCondition(c, ctx({ amount: 5 }, {})).holds).toBe(false);
    expect(evaluateCondition(c, ctx({ amount: 5 }, { amount: 5 })).holds).toBe(true);
    const topic = {
      method: 'param_extracted_current',
      reads_message: true,
      operation: 'about',
      value: 'stolen card',
    } as Condition;
    expect(evaluateCondition(topic, ctx({})).holds).toBe(true);
  });

  it('explains an all-group by its failing leaf', () => {
    const r = evaluateCondition(
      { all: [leaf('amount', 'gt', 500), leaf('verified', 'eq', false)] },
      ctx({ amount: 100, verified: false }),
    );
    expect(r.holds).toBe(false);
    expect(r.reason).toBe('amount is 100, so amount > 500 does not hold');
  });
});
