import { describe, expect, it } from 'vitest';
import { jsonDepth } from './json-body';

describe('jsonDepth', () => {
  it('counts the deepest nesting of arrays and objects', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":2}],"c":{}}')).toBe(3);
    expect(jsonDepth('[[[[]]],[]]')).toBe(4);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[","b":[]}')).toBe(2);
  });
});
