import { describe, expect, it } from 'vitest';
import {
  changedNodes,
  differenceText,
  editorKind,
  editorText,
  editorValue,
  editsText,
  editsToSend,
  messageStatingEdits,
  parameterOfNode,
  statementOf,
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

describe('the parameter a graph node stands for', () => {
  const params = [{ code: 'transaction-date' }, { code: 'transaction.note' }];
  it('a parameter node by its code, an entity by its key or the part after the last dot', () => {
    expect(parameterOfNode({ kind: 'param', label: 'transaction-date' }, params)?.code).toBe(
      'transaction-date',
    );
    expect(parameterOfNode({ kind: 'entity', label: 'transaction.transaction-date' }, params)?.code).toBe(
      'transaction-date',
    );
    expect(parameterOfNode({ kind: 'entity', label: 'transaction.note' }, params)?.code).toBe(
      'transaction.note',
    );
  });
  it('none for a value the what-if cannot edit, or a node that holds no value', () => {
    expect(parameterOfNode({ kind: 'param', label: 'days-since-transaction' }, params)).toBeUndefined();
    expect(parameterOfNode({ kind: 'param', label: 'x.transaction-date' }, params)).toBeUndefined();
    expect(parameterOfNode({ kind: 'rule', label: 'transaction-date' }, params)).toBeUndefined();
  });
});

describe('the edits in words', () => {
  const edits = [
    { code: 'transaction-date', value: '2025-03-07' },
    { code: 'transaction-amount', value: 620 },
    { code: 'contact-email', missing: true as const },
  ];
  it('short, for the what-if', () => {
    expect(editsText(edits)).toBe(
      'transaction-date = "2025-03-07"; transaction-amount = 620; contact-email not known',
    );
  });
  it('as a user would state them, before the turn’s own message', () => {
    expect(statementOf(edits)).toBe(
      "My transaction date is 2025-03-07. My transaction amount is 620. I don't know my contact email.",
    );
    expect(messageStatingEdits(edits.slice(0, 1), ' I want to dispute a charge ')).toBe(
      'My transaction date is 2025-03-07. I want to dispute a charge',
    );
    expect(messageStatingEdits([], 'Hello')).toBe('Hello');
  });
});
