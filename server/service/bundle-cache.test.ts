import { describe, expect, it } from 'vitest';
import { createBundleCache } from './bundle-cache';

const entry = (name: string) => ({ bundle: { general_settings: { name } }, issues: [] });

describe('bundle cache', () => {
  it('checks a bundle once per hash and answers the first object after that', () => {
    const cache = createBundleCache(4);
    let checks = 0;
    const check = () => {
      checks += 1;
      return entry('a');
    };
    const first = cache.lookup('h1', check);
    const again = cache.lookup('h1', check);
    expect(again).toBe(first);
    expect(checks).toBe(1);
  });

  it('forgets the least recently used bundle beyond its capacity', () => {
    const cache = createBundleCache(2);
    const a = cache.lookup('a', () => entry('a'));
    cache.lookup('b', () => entry('b'));
    cache.lookup('a', () => entry('a2'));
    cache.lookup('c', () => entry('c'));
    expect(cache.size).toBe(2);
    expect(cache.lookup('a', () => entry('a3'))).toBe(a);
    expect(cache.lookup('b', () => entry('b2')).bundle).toEqual({ general_settings: { name: 'b2' } });
  });
});
