import { describe, expect, it } from 'vitest';
import { formatComparePair, parseComparePair } from './pair';

describe('compare pair', () => {
  it('round-trips', () => {
    expect(parseComparePair(formatComparePair('task-1', 'task-2'))).toEqual({ a: 'task-1', b: 'task-2' });
  });
  it('splits at the first ".." (ids may hold single dots)', () => {
    expect(parseComparePair('a.1..b.2')).toEqual({ a: 'a.1', b: 'b.2' });
  });
  it('rejects anything that is not two different ids', () => {
    for (const bad of [undefined, null, '', 'abc', '..b', 'a..', 'a..a', ' .. '])
      expect(parseComparePair(bad)).toBeNull();
  });
});
