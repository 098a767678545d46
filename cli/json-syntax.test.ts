import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from './json-syntax';

describe('jsonErrorOffset', () => {
  it('finds nothing wrong in JSON', () => {
    for (const text of ['{}', ' [1, -2.5e3, "a\\u00e9\\n", true, false, null, {"k": []}] ', '"x"', '0'])
      expect(jsonErrorOffset(text), text).toBeNull();
  });

  it('points at the first character that cannot be there', () => {
    for (const [text, at] of [
      ['{\n  "a": [,]\n}', 10],
      ['[1,]', 3],
      ['{"a":tru}', 5],
      ['{"a" 1}', 5],
      ['{"a": 1,}', 8],
      ['{"a": 1} x', 9],
      ['{"a": "b\\x"}', 8],
      ['{"a": 01}', 7],
      ['[1 2]', 3],
      ['{"a": [1}', 8],
    ] as const)
      expect(jsonErrorOffset(text), text).toBe(at);
  });

  it('points at the end of text that ends too early, and stays linear on deep nesting', () => {
    expect(jsonErrorOffset('{"a": [1, 2')).toBe(11);
    expect(jsonErrorOffset('"abc')).toBe(4);
    expect(jsonErrorOffset('')).toBe(0);
    expect(jsonErrorOffset('['.repeat(200_000))).toBe(200_000);
  });
});
