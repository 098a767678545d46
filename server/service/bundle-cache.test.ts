import { describe, expect, it } from 'vitest';
import { createBundleCache } from './bundle-cache';

const entry = async (name: string) => ({ bundle: { general_settings: { name } }, issues: [] });

describe('bundle cache', () => {
  it('checks a bundle once per hash and answers the first object after that', async () => {
    const cache = createBundleCache(4);
    let checks = 0;
    const check = () => {
      checks += 1;
      return entry('a');
    };
    const first = await cache.lookup('h1', check);
    const again = await cache.lookup('h1', check);
    expect(again).toBe(first);
    expect(checks).toBe(1);
  });

  it('forgets the least recently used bundle beyond its capacity', async () => {
    const cache = createBundleCache(2);
    const a = await cache.lookup('a', () => entry('a'));
    await cache.lookup('b', () => entry('b'));
    await cache.lookup('a', () => entry('a2'));
    await cache.lookup('c', () => entry('c'));
    expect(cache.size).toBe(2);
    expect(await cache.lookup('a', () => entry('a3'))).toBe(a);
    expect((await cache.lookup('b', () => entry('b2'))).bundle).toEqual({ general_settings: { name: 'b2' } });
  });
});
