import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundleHash, canonicalJson, sha256Hex, shortBundleHash } from './hash';

const nodeSha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches the published test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with Node crypto across block boundaries and multi-byte characters', () => {
    for (const n of [1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const s = 'é€𝄞x'.repeat(n).slice(0, n);
      expect(sha256Hex(s)).toBe(nodeSha256(s));
    }
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }, 3] })).toBe('{"a":[{"x":1,"y":2},3],"b":1}');
  });

  it('leaves out undefined properties and writes non-finite numbers as themselves, not as null', () => {
    expect(canonicalJson({ a: undefined, b: [NaN, Infinity, -Infinity, null], c: 'q"\n' })).toBe(
      '{"b":[NaN,Infinity,-Infinity,null],"c":"q\\"\\n"}',
    );
  });

  it('refuses what JSON cannot hold instead of writing it as null', () => {
    expect(() => canonicalJson([undefined])).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it('refuses cyclic values', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => canonicalJson(a)).toThrow(/cycle/);
  });

  it('accepts a value referenced twice without a cycle', () => {
    const shared = { k: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"k":1},{"k":1}]');
  });
});

describe('bundleHash', () => {
  it('does not depend on key order', () => {
    const a = {
      general_settings: { name: 'A', language: 'en' },
      parameters: [{ code: 'x', type: 'string' }],
    };
    const b = {
      parameters: [{ type: 'string', code: 'x' }],
      general_settings: { language: 'en', name: 'A' },
    };
    expect(bundleHash(a)).toBe(bundleHash(b));
    expect(bundleHash(a)).toBe(nodeSha256(canonicalJson(a)));
  });

  it('changes when any value changes, including array order', () => {
    const base = { agent_tools: [{ code: 'A' }, { code: 'B' }] };
    expect(bundleHash(base)).not.toBe(bundleHash({ agent_tools: [{ code: 'B' }, { code: 'A' }] }));
    expect(bundleHash(base)).not.toBe(bundleHash({ agent_tools: [{ code: 'A' }, { code: 'C' }] }));
  });

  it('never gives two distinct parsed bundles one hash (1e309 is Infinity, not null)', () => {
    const texts = [
      '{"general_settings":{"name":"A","max":1e309}}',
      '{"general_settings":{"name":"A","max":null}}',
      '{"general_settings":{"name":"A","max":-1e309}}',
      '{"general_settings":{"name":"A","max":"Infinity"}}',
      '{"general_settings":{"name":"A","max":0}}',
      '{"general_settings":{"name":"A"}}',
    ];
    const hashes = texts.map((t) => bundleHash(JSON.parse(t)));
    expect(new Set(hashes).size).toBe(texts.length);
  });

  it('has a short form of the first 8 hex digits', () => {
    expect(shortBundleHash({})).toBe(bundleHash({}).slice(0, 8));
    expect(shortBundleHash({})).toMatch(/^[0-9a-f]{8}$/);
  });
});
