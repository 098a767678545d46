import { describe, expect, it } from 'vitest';
import {
  changedNodes,
  differenceText,
  editorKind,
  editorText,
  editorValue,
  editsToSend,
} from './what-if-model';

describe('the editor a parameter gets', () => {
  it('follows its type, an enum first', () => {
    expect(editorKind({ type: 'date' })).toBe('date');
    expect(editorKind({ type: 'numeric' })).toBe('number');
    expect(editorKind({ type: 'boolean' })).toBe('boolean');
    expect(editorKind({ type: 'string' })).toBe('text');
    expect(editorKind({ type: 'string', values: ['duplicate', 'fraud'] })).toBe('enum');
  });
});

describe('the value an editor gives', () => {
  it('reads numbers, dates, booleans and enum values, and nothing half-typed', () => {
    expect(editorValue('number', '620')).toBe(620);
    expect(editorValue('number', '6.5')).toBe(6.5);
    expect(editorValue('number', '-')).toBeUndefined();
    expect(editorValue('date', '2025-03-07')).toBe('2025-03-07');
    expect(editorValue('date', '2025-03')).toBeUndefined();
    expect(editorValue('boolean', 'false')).toBe(false);
    expect(editorValue('enum', '2', [1, 2])).toBe(2);
    expect(editorValue('enum', 'x', ['a'])).toBeUndefined();
    expect(editorValue('text', 'Coffee Corner')).toBe('Coffee Corner');
  });
  it('an empty editor means not known', () => {
    expect(editorValue('number', ' ')).toEqual({ missing: true });
    expect(editorText({ missing: true })).toBe('');
    expect(editorText(120)).toBe('120');
  });
});

describe('the edits sent', () => {
  it('follow the order of the parameters, a missing value as such', () => {
    expect(editsToSend({ b: { missing: true }, a: 620, z: 'x' }, ['a', 'b'])).toEqual([
      { code: 'a', value: 620 },
      { code: 'b', missing: true },
      { code: 'z', value: 'x' },
    ]);
  });
});

describe('what a what-if changes on the graph', () => {
  it('marks the decision, the rules and the tools that changed', () => {
    const diffs = [
      {
        kind: 'decision' as const,
        subject: '',
        before: 'block_with_explanation',
        after: 'request_information',
      },
      { kind: 'rule' as const, subject: 'DISPUTE_WINDOW', before: 'blocked', after: 'allowed' },
      { kind: 'tool' as const, subject: 'FREEZE_CARD', before: 'not invoked', after: 'invoked' },
    ];
    expect(changedNodes(diffs)).toEqual({
      decision: 'changed',
      'rule:DISPUTE_WINDOW': 'changed',
      'tool:FREEZE_CARD': 'changed',
    });
    expect(differenceText(diffs[1]!)).toBe('DISPUTE_WINDOW blocked → allowed');
    expect(differenceText(diffs[0]!)).toBe('decision block_with_explanation → request_information');
  });
});
