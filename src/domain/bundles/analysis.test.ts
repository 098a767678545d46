import { describe, expect, it } from 'vitest';
import { analyzeText, bundleText, jsonErrorOffset, sendBlockReason } from './analysis';
import { analyzeDraft } from './analysis-runner';

const good = {
  parameters: [{ code: 'transaction-date', type: 'date' }],
  agent_tools: [
    {
      code: 'DISPUTE_CHARGE',
      rules: {
        pre: {
          constraint: [
            {
              code: 'DISPUTE_WINDOW',
              when: {
                method: 'param_value',
                params: 'transaction-date',
                operation: 'more_than_x_days',
                value: 8,
              },
              then: { action: 'BLOCK', message: 'Too late.' },
            },
          ],
        },
      },
    },
  ],
};

describe('analyzeText', () => {
  it('parses a valid bundle and finds no errors', () => {
    const a = analyzeText(bundleText(good));
    expect(a.kind).toBe('parsed');
    if (a.kind !== 'parsed') return;
    expect(a.errors).toBe(0);
    expect(a.bundle).toEqual(good);
    expect(sendBlockReason(a)).toBeNull();
  });

  it("reports the shared validator's errors and refuses to send", () => {
    const bad = structuredClone(good);
    bad.agent_tools[0]!.rules.pre.constraint[0]!.when.params = 'transaction-dat';
    const a = analyzeText(bundleText(bad));
    expect(a.kind === 'parsed' && a.issues.map((i) => i.code)).toContain('unknown_parameter');
    expect(sendBlockReason(a)).toMatch(/1 error, so it is not sent/);
  });

  it('tells broken JSON from an empty editor, with where the parse stopped', () => {
    const text = '{\n  "parameters": [\n}';
    const a = analyzeText(text);
    expect(a.kind).toBe('invalid-json');
    if (a.kind === 'invalid-json') {
      expect(a.offset).toBe(text.lastIndexOf('}'));
    }
    expect(sendBlockReason(a)).toMatch(/not valid JSON/);
    expect(analyzeText('  \n').kind).toBe('empty');
    expect(sendBlockReason(analyzeText(''))).toMatch(/empty/);
  });

  it('counts a non-object document as an error', () => {
    const a = analyzeText('[1, 2]');
    expect(a.kind === 'parsed' && a.errors).toBeGreaterThan(0);
    expect(sendBlockReason(a)).not.toBeNull();
  });

  it('remembers the answer for the same text (analysed in place where there is no Worker)', () => {
    const text = bundleText(good);
    expect(analyzeDraft(text)).toBe(analyzeDraft(text));
    expect(analyzeDraft(text).kind).toBe('parsed');
  });

  it('says a draft still being checked cannot be sent yet', () => {
    expect(sendBlockReason({ kind: 'checking' })).toMatch(/still being checked/);
  });

  it('reports a bundle too deeply nested to check instead of throwing', () => {
    const deep = `{"agent_tools":[{"code":"A","config":{"triggers":{"when":${'{"not":'.repeat(20_000)}null${'}'.repeat(20_000)}}}}]}`;
    const a = analyzeText(deep);
    expect(a.kind === 'parsed' && a.issues.map((i) => i.code)).toEqual(['bundle_too_complex']);
    expect(sendBlockReason(a)).toMatch(/1 error/);
  });
});

describe('jsonErrorOffset', () => {
  it('reads both V8 message styles', () => {
    expect(jsonErrorOffset('{"a": x}', 'Unexpected token x in JSON at position 6')).toBe(6);
    expect(
      jsonErrorOffset(
        '{\n  "a": x\n}',
        'Unexpected token \'x\', "{ "a": x }" is not valid JSON (line 2 column 8)',
      ),
    ).toBe(9);
    expect(jsonErrorOffset('{', 'Unexpected end of JSON input')).toBe(1);
    expect(jsonErrorOffset('{', 'something else')).toBeNull();
  });
});
