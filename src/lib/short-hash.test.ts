import { describe, expect, it } from 'vitest';
import { shortBundleHash } from './short-hash';

describe('shortBundleHash', () => {
  it('shortens hashes, with or without an algorithm prefix', () => {
    expect(shortBundleHash('0123456789abcdef')).toBe('01234567');
    expect(shortBundleHash('sha256:abcdef0123456789')).toBe('abcdef01');
    expect(shortBundleHash(null)).toBeNull();
    expect(shortBundleHash('')).toBeNull();
  });
});
