import { describe, expect, it } from 'vitest';
import { jsonSyntaxErrorOffset } from './json-syntax';

describe('jsonSyntaxErrorOffset', () => {
  it('accepts what JSON.parse accepts', () => {
    for (const ok of [
      '{}',
      '[]',
      ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]} ',
      '"s"',
      '0',
      '{"a":{"b":[{}]}}',
    ]) {
      expect(() => JSON.parse(ok)).not.toThrow();
      expect(jsonSyntaxErrorOffset(ok)).toBeNull();
    }
  });

  it('points at the first wrong character', () => {
    expect(jsonSyntaxErrorOffset('{\n  "parameters": [\n}')).toBe(20);
    expect(jsonSyntaxErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonSyntaxErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonSyntaxErrorOffset('[1 2]')).toBe(3);
    expect(jsonSyntaxErrorOffset('{"a": tru}')).toBe(6);
    expect(jsonSyntaxErrorOffset('{} x')).toBe(3);
    expect(jsonSyntaxErrorOffset('01')).toBe(1);
  });

  it('reports an unfinished text at its end', () => {
    expect(jsonSyntaxErrorOffset('{"a": "open')).toBe(11);
    expect(jsonSyntaxErrorOffset('[')).toBe(1);
    expect(jsonSyntaxErrorOffset('')).toBe(0);
  });

  it('agrees with JSON.parse on random mutations of a document', () => {
    const base = JSON.stringify({ a: [1, 2, { b: 'c', d: null }], e: true, f: -0.5 }, null, 2);
    for (let k = 0; k < base.length; k += 1) {
      const mutated = base.slice(0, k) + base.slice(k + 1);
      let valid = true;
      try {
        JSON.parse(mutated);
      } catch {
        valid = false;
      }
      expect(jsonSyntaxErrorOffset(mutated) === null).toBe(valid);
    }
  });
});
