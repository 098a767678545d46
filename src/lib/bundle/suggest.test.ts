import { describe, expect, it } from 'vitest';
import { closestMatch, editDistance, suggestion } from './suggest';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('closestMatch', () => {
  const params = ['transaction-date', 'transaction-id', 'amount'];

  it('finds a typo', () => {
    expect(closestMatch('transaction-dat', params)).toBe('transaction-date');
    expect(closestMatch('amont', params)).toBe('amount');
  });

  it('ignores case and separator differences', () => {
    expect(closestMatch('TRANSACTION_ID', params)).toBe('transaction-id');
  });

  it('suggests nothing for an unrelated name', () => {
    expect(closestMatch('zip', params)).toBeUndefined();
  });
});

describe('suggestion', () => {
  it('says "Did you mean" for a close name, lists a short list otherwise, or says none exist', () => {
    expect(suggestion('amont', ['amount'], 'parameters')).toBe(" Did you mean 'amount'?");
    expect(suggestion('zzzz', ['a-b', 'c-d'], 'parameters')).toBe(" Defined parameters: 'a-b', 'c-d'.");
    expect(suggestion('zzzz', [], 'tools', '')).toBe(' No tools are defined.');
    expect(
      suggestion(
        'zzzz',
        Array.from({ length: 9 }, (_, i) => `p${i}`),
        'parameters',
      ),
    ).toBe('');
  });
});
