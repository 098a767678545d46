import { describe, expect, it } from 'vitest';
import { bundleChangeLine, summarizeBundleChanges } from './bundle-changes';

const rule = (value: number, message = 'Only within 8 days.') => ({
  code: 'DISPUTE_WINDOW',
  when: { method: 'param_value', params: 'transaction-date', operation: 'more_than_x_days', value },
  then: { action: 'BLOCK', message },
});
const bundle = (over: { value?: number; rules?: unknown[]; parameters?: unknown[] } = {}) => ({
  agent_tools: [
    {
      tool: { code: 'DISPUTE_CHARGE', name: 'Dispute a charge' },
      rules: over.rules ?? [rule(over.value ?? 8), { code: 'MIN_AMOUNT', when: { value: 1 } }],
    },
  ],
  parameters: over.parameters ?? [
    { code: 'transaction-date', type: 'date' },
    { code: 'transaction-amount', type: 'numeric' },
  ],
});

describe('summarizeBundleChanges', () => {
  it('says a day window change in words', () => {
    expect(summarizeBundleChanges(bundle(), bundle({ value: 30 }))).toEqual({
      lines: ['DISPUTE_WINDOW: window 8 → 30 days'],
      more: 0,
    });
  });

  it('is empty for the same bundle, and for a list only reordered', () => {
    expect(summarizeBundleChanges(bundle(), bundle()).lines).toEqual([]);
    const reordered = bundle({
      parameters: [
        { code: 'transaction-amount', type: 'numeric' },
        { code: 'transaction-date', type: 'date' },
      ],
    });
    expect(summarizeBundleChanges(bundle(), reordered).lines).toEqual([]);
  });

  it('names items added and removed, other values with their path, long texts as reworded', () => {
    const after = bundle({
      rules: [rule(8, 'A much longer explanation of the dispute window for the customer.')],
      parameters: [
        { code: 'transaction-date', type: 'string' },
        { code: 'transaction-amount', type: 'numeric' },
        { code: 'merchant-name', type: 'string' },
      ],
    });
    expect(summarizeBundleChanges(bundle(), after).lines).toEqual([
      'DISPUTE_WINDOW: then.message reworded',
      'rule MIN_AMOUNT removed',
      'transaction-date: type "date" → "string"',
      'parameter merchant-name added',
    ]);
  });

  it('caps the lines and counts the rest', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ code: `P${i}`, type: 'date' }));
    const s = summarizeBundleChanges(bundle({ parameters: [] }), bundle({ parameters: many(40) }));
    expect(s.lines).toHaveLength(12);
    expect(s.more).toBe(28);
    expect(bundleChangeLine(bundle({ parameters: [] }), bundle({ parameters: many(13) }))).toMatch(
      /; and 1 more$/,
    );
  });

  it('says nothing changed as undefined, and a change of kind plainly', () => {
    expect(bundleChangeLine(bundle(), bundle())).toBeUndefined();
    expect(bundleChangeLine({ a: [1, 2] }, { a: 'x' })).toBe('a: a list of 2 → "x"');
  });
});
