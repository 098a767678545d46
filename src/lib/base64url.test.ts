import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base64UrlToBytes, bytesToBase64Url } from './base64url';

describe('base64url', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(Array.from(base64UrlToBytes(bytesToBase64Url(bytes)))).toEqual(Array.from(bytes));
      }),
    );
  });

  it('uses only URL-safe characters and no padding', () => {
    const text = bytesToBase64Url(new Uint8Array([251, 255, 191, 0, 1]));
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(text).toBe('-_-_AAE');
  });

  it('round-trips a large buffer (beyond one chunk)', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 31) % 256);
    expect(Buffer.from(base64UrlToBytes(bytesToBase64Url(bytes))).equals(Buffer.from(bytes))).toBe(true);
  });

  it('rejects foreign characters and impossible lengths', () => {
    expect(() => base64UrlToBytes('abc$')).toThrow(/base64url/);
    expect(() => base64UrlToBytes('abcde')).toThrow(/truncated/);
  });
});
