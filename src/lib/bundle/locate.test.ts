import { describe, expect, it } from 'vitest';
import { locateInJson, offsetToLineColumn, parseJsonTree } from './locate';

/** The text a range covers. */
function at(text: string, loc: (string | number)[]): string | null {
  const r = locateInJson(text, loc);
  return r ? text.slice(r.start, r.end) : null;
}

const doc = `{
  "general_settings": { "name": "Bank [main] {v2}" },
  "parameters": [
    { "code": "say \\"hi\\" ]}", "type": "string" },
    { "code": "amount", "type": "numeric", "values": [1, [2, 3], {"x": null}] }
  ],
  "agent_tools": [
    {
      "code": "DISPUTE_CHARGE",
      "rules": { "pre": { "constraint": [ { "when": { "all": [ { "method": "param_value", "operation": "gt" } ] } } ] } }
    }
  ]
}`;

describe('locateInJson', () => {
  it('finds values in nested objects and arrays', () => {
    expect(at(doc, ['parameters', 1, 'code'])).toBe('"amount"');
    expect(at(doc, ['parameters', 1, 'values', 1, 0])).toBe('2');
    expect(at(doc, ['parameters', 1, 'values', 2, 'x'])).toBe('null');
    expect(at(doc, ['agent_tools', 0, 'rules', 'pre', 'constraint', 0, 'when', 'all', 0, 'operation'])).toBe(
      '"gt"',
    );
  });

  it('gives the whole range of an object or array value', () => {
    expect(at(doc, ['parameters', 1, 'values'])).toBe('[1, [2, 3], {"x": null}]');
    expect(at(doc, ['general_settings'])).toBe('{ "name": "Bank [main] {v2}" }');
    expect(at(doc, [])).toBe(doc);
  });

  it('is not fooled by brackets and escaped quotes inside strings', () => {
    expect(at(doc, ['parameters', 0, 'code'])).toBe('"say \\"hi\\" ]}"');
    expect(at(doc, ['parameters', 0, 'type'])).toBe('"string"');
    expect(at(doc, ['general_settings', 'name'])).toBe('"Bank [main] {v2}"');
  });

  it('marks a found path exact', () => {
    expect(locateInJson(doc, ['parameters', 1, 'code'])?.exact).toBe(true);
  });

  it('falls back to the key of the nearest existing ancestor for a missing key', () => {
    const r = locateInJson(doc, ['general_settings', 'welcome_message']);
    expect(r?.exact).toBe(false);
    expect(doc.slice(r!.start, r!.end)).toBe('"general_settings"');
    expect(at(doc, ['agent_tools', 0, 'rules', 'pre', 'missing_info', 0])).toBe('"pre"');
  });

  it('falls back to the opening bracket of an array element that has no key', () => {
    const r = locateInJson(doc, ['parameters', 1, 'computation']);
    expect(r?.exact).toBe(false);
    expect(r!.start).toBe(doc.indexOf('{ "code": "amount"'));
    expect(r!.end - r!.start).toBe(1);
  });

  it('falls back for an index past the end of an array', () => {
    expect(at(doc, ['parameters', 5, 'code'])).toBe('"parameters"');
  });

  it('uses the last of duplicate keys, as JSON.parse does', () => {
    expect(at('{"a": 1, "a": 2}', ['a'])).toBe('2');
  });

  it('keeps going through half-typed text', () => {
    const broken = '{ "a": { "b": [1, 2 "c" 3], "d": "unterminated\n, "e" 5, "f": {"g": true';
    expect(at(broken, ['a', 'b', 3])).toBe('3');
    expect(at(broken, ['a', 'e'])).toBe('5');
    expect(at(broken, ['a', 'f', 'g'])).toBe('true');
  });

  it('skips comments', () => {
    expect(at('{ // the name\n "a": /* old: 1 */ 2 }', ['a'])).toBe('2');
  });

  it('returns null when the text holds no value', () => {
    expect(locateInJson('', ['a'])).toBeNull();
    expect(locateInJson('   ', [])).toBeNull();
    expect(parseJsonTree('}')).toBeNull();
  });

  it('decodes escapes in keys', () => {
    expect(at('{"a\\u0062": 1, "x\\"y": 2}', ['ab'])).toBe('1');
    expect(at('{"a\\u0062": 1, "x\\"y": 2}', ['x"y'])).toBe('2');
  });
});

describe('offsetToLineColumn', () => {
  it('counts 1-based lines and columns', () => {
    const text = 'ab\ncd\r\nef';
    expect(offsetToLineColumn(text, 0)).toEqual({ line: 1, column: 1 });
    expect(offsetToLineColumn(text, 2)).toEqual({ line: 1, column: 3 });
    expect(offsetToLineColumn(text, 3)).toEqual({ line: 2, column: 1 });
    expect(offsetToLineColumn(text, 7)).toEqual({ line: 3, column: 1 });
    expect(offsetToLineColumn(text, 8)).toEqual({ line: 3, column: 2 });
  });

  it('clamps offsets outside the text', () => {
    expect(offsetToLineColumn('ab\nc', 99)).toEqual({ line: 2, column: 2 });
    expect(offsetToLineColumn('ab', -3)).toEqual({ line: 1, column: 1 });
  });

  it('agrees with locateInJson on a marker position', () => {
    const r = locateInJson(doc, ['parameters', 1, 'code'])!;
    const { line, column } = offsetToLineColumn(doc, r.start);
    expect(doc.split('\n')[line - 1]!.slice(column - 1)).toMatch(/^"amount"/);
  });
});
