/**
 * Text is work: every character a turn writes (formula values, filled messages) counts against
 * its budget, and no value or message may pass `MAX_WRITTEN_CHARS`. Run on the engine directly,
 * so bundles the validator would refuse reach the turn.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../src/contract/bundle';
import { WorkBudgetExceeded } from '../src/lib/bundle/work-budget';
import { engine } from '.';
import { jsonLength, jsonLengthOver } from './output-size';

const CLOCK = '2025-03-15T10:00:00Z';
const turn = (bundle: unknown, text = 'I want to dispute a charge') => {
  const b = bundle as Bundle;
  return engine.runTurn({
    bundle: b,
    state: engine.initialState(b, CLOCK, 'u'),
    text,
    clock: CLOCK,
    interactionId: 'm',
    userId: 'u',
  });
};
const tool = (message: string) => ({
  code: 'DISPUTE_CHARGE',
  name: 'Dispute a charge',
  main_tool: true,
  rules: { pre: { constraint: [{ when: null, then: { action: 'BLOCK', message } }] } },
});
const doubling = (depth: number, op: (x: string) => string) => ({
  parameters: [
    { code: 'd0', type: 'string', usage: 'computed', computation: `"${'a'.repeat(500)}"` },
    ...Array.from({ length: depth }, (_, i) => ({
      code: `d${i + 1}`,
      type: 'string',
      usage: 'computed',
      computation: op(`{{d${i}}}`),
    })),
  ],
  agent_tools: [tool(`{{d${depth}}}`)],
});

describe('the output budget of a turn', () => {
  it('a value doubled by concat is refused, naming it, before it is written', () => {
    expect(() => turn(doubling(19, (x) => `concat(${x}, ${x})`))).toThrow(WorkBudgetExceeded);
    expect(() => turn(doubling(19, (x) => `concat(${x}, ${x})`))).toThrow(
      /writing the computed value 'd\d+'/,
    );
  });

  it('a value doubled by + is refused the same way', () => {
    expect(() => turn(doubling(19, (x) => `${x} + ${x}`))).toThrow(/the computed value 'd\d+'/);
  });

  it('a message printing a value 100,000 times is refused, naming the placeholder', () => {
    const bundle = {
      parameters: [{ code: 'd0', type: 'string', usage: 'computed', computation: `"${'a'.repeat(500)}"` }],
      agent_tools: [tool('{{d0}}'.repeat(100_000))],
    };
    expect(() => turn(bundle)).toThrow(/a message filling \{\{d0\}\}/);
  });

  it('a small doubling still runs and prints the whole value', () => {
    const out = turn(doubling(3, (x) => `concat(${x}, ${x})`));
    expect(out.reply).toContain('a'.repeat(4000));
  });
});

describe('jsonLength', () => {
  it('counts at least what JSON.stringify writes, and stops past the limit', () => {
    const value = { a: ['x'.repeat(100), 1, null, { b: true }], c: 'yz' };
    expect(jsonLength(value, 1e9)).toBeGreaterThanOrEqual(JSON.stringify(value).length);
    const shared = 'x'.repeat(1_000);
    const wide = Array.from({ length: 1_000_000 }, () => shared);
    expect(jsonLengthOver(wide, 10_000)).toBe(true);
  });
});
