import { describe, expect, it } from 'vitest';
import { describeFilter, filtersOf, findOf, typedFilter, withFilter, withoutFilter } from './find';

describe('a search as filters in a query string', () => {
  it('reads known fields with a value, each once, and writes them back', () => {
    const find =
      'rule=DISPUTE_WINDOW%3Ablocked&rule=DISPUTE_WINDOW%3Ablocked&nope=1&q=&param=transaction-amount%3E500';
    const filters = filtersOf(find);
    expect(filters).toEqual([
      { field: 'rule', value: 'DISPUTE_WINDOW:blocked' },
      { field: 'param', value: 'transaction-amount>500' },
    ]);
    expect(filtersOf(findOf(filters))).toEqual(filters);
  });

  it('adds a filter once and removes it', () => {
    const rule = { field: 'rule', value: 'DISPUTE_WINDOW:blocked' } as const;
    const once = withFilter(withFilter('', rule), rule);
    expect(filtersOf(once)).toEqual([rule]);
    expect(withoutFilter(withFilter(once, { field: 'q', value: 'coffee' }), rule)).toBe('q=coffee');
  });

  it('says each filter in words', () => {
    expect(describeFilter({ field: 'rule', value: 'DISPUTE_WINDOW:not_applicable' })).toBe(
      'rule DISPUTE_WINDOW not applicable',
    );
    expect(describeFilter({ field: 'tool', value: 'DISPUTE_CHARGE:invoked' })).toBe(
      'tool DISPUTE_CHARGE invoked',
    );
    expect(describeFilter({ field: 'param', value: 'transaction-amount>500' })).toBe(
      'transaction-amount > 500',
    );
    expect(describeFilter({ field: 'param', value: 'email' })).toBe('email has a value');
    expect(describeFilter({ field: 'where', value: 'transaction-amount<=1000' })).toBe(
      'transaction-amount <= 1000',
    );
    expect(describeFilter({ field: 'where', value: '!card-id' })).toBe('card-id has no value');
    expect(describeFilter({ field: 'decision', value: 'proceed' })).toBe('decision proceed');
  });

  it('reads what a person typed: field:value is a filter, anything else words', () => {
    expect(typedFilter(' rule:DISPUTE_WINDOW:blocked ')).toEqual({
      field: 'rule',
      value: 'DISPUTE_WINDOW:blocked',
    });
    expect(typedFilter('coffee corner')).toEqual({ field: 'q', value: 'coffee corner' });
    expect(typedFilter('note: refund')).toEqual({ field: 'q', value: 'note: refund' });
    expect(typedFilter('   ')).toBeNull();
  });
});
