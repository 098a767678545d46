import { describe, expect, it } from 'vitest';
import { closestMatch, editDistanceWithin, MAX_SUGGEST_LENGTH, suggestion } from './suggest';

describe('editDistanceWithin', () => {
  it('counts insertions, deletions and substitutions up to the limit', () => {
    expect(editDistanceWithin('kitten', 'sitting', 5)).toBe(3);
    expect(editDistanceWithin('kitten', 'sitting', 3)).toBe(3);
    expect(editDistanceWithin('', 'abc', 3)).toBe(3);
    expect(editDistanceWithin('same', 'same', 0)).toBe(0);
    expect(editDistanceWithin('flaw', 'lawn', 2)).toBe(2);
  });

  it('answers limit + 1 beyond the limit', () => {
    expect(editDistanceWithin('kitten', 'sitting', 2)).toBe(3);
    expect(editDistanceWithin('abc', 'abcdefgh', 2)).toBe(3);
    expect(editDistanceWithin('abcdef', 'uvwxyz', 1)).toBe(2);
  });

  it('agrees with the full distance on random short strings', () => {
    const full = (a: string, b: string) => {
      let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        for (let j = 1; j <= b.length; j++)
          cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = cur;
      }
      return prev[b.length]!;
    };
    let seed = 1;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const word = () =>
      Array.from({ length: Math.floor(rand() * 9) }, () => 'abc'[Math.floor(rand() * 3)]).join('');
    for (let n = 0; n < 2000; n++) {
      const [a, b, limit] = [word(), word(), Math.floor(rand() * 6)];
      expect(editDistanceWithin(a, b, limit)).toBe(Math.min(full(a, b), limit + 1));
    }
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

  it('suggests nothing for a name too long to be a typo worth comparing', () => {
    const long = 'a'.repeat(MAX_SUGGEST_LENGTH + 1);
    expect(closestMatch(`${long}b`, [`${long}c`])).toBeUndefined();
    expect(closestMatch(`${long.slice(2)}b`, [`${long.slice(2)}c`])).toBe(`${long.slice(2)}c`);
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
    expect(suggestion('zzzz', new Map([['amount', 1]]), 'parameters')).toBe(" Defined parameters: 'amount'.");
    const long = 'x'.repeat(10_000);
    expect(suggestion('zzzz', [long], 'parameters').length).toBeLessThan(100);
  });
});
