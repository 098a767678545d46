import { describe, expect, it } from 'vitest';
import { converse, exampleBundle } from '../server/agents/converse';

const CLOCK = '2025-03-15T10:00:00Z';

function rulesOf(text: string) {
  const trace = converse(exampleBundle('flight-changes'), CLOCK).say(text).trace;
  const ids = trace.rules_evaluated.map((r) => r.rule_id);
  return { trace, ids };
}

describe('a sequencing rule', () => {
  it('that ran its tool first is recorded with that outcome, before the evaluations of the tool it ran', () => {
    const { trace, ids } = rulesOf('cancel booking BIZ314');
    const at = ids.indexOf('LOOKUP_BEFORE_CANCEL');
    const entry = trace.rules_evaluated[at]!;
    expect(entry.result).toBe('allowed');
    expect(entry.reason).toMatch(/; allowed: LOOKUP_BOOKING ran first$/);
    const nested = ids.findIndex((id) => id.startsWith('LOOKUP_BOOKING.'));
    expect(nested).toBeGreaterThan(at);
    expect(trace.rules_evaluations?.[at]).toEqual({
      code: 'LOOKUP_BEFORE_CANCEL',
      triggered: true,
      reason: entry.reason,
    });
  });

  it('whose tool must finish first is recorded blocked, before the evaluations of that tool', () => {
    const { trace, ids } = rulesOf('I need to change my flight');
    const at = ids.indexOf('LOOKUP_BEFORE_CHANGE');
    expect(trace.rules_evaluated[at]).toMatchObject({ result: 'blocked' });
    expect(trace.rules_evaluated[at]!.reason).toMatch(
      /LOOKUP_BOOKING must finish before CHANGE_FLIGHT can go on$/,
    );
    expect(ids.findIndex((id) => id.startsWith('LOOKUP_BOOKING.'))).toBeGreaterThan(at);
  });
});

describe('rule evaluations', () => {
  it('are recorded final: no entry of a trace can be edited after it was recorded', () => {
    const c = converse(exampleBundle('flight-changes'), CLOCK);
    const turns = [
      'cancel booking BIZ314',
      'yes',
      'I need to change my flight',
      'ABC123',
      'next friday',
      'yes',
    ];
    const entries = turns.flatMap((text) => c.say(text).trace.rules_evaluated);
    expect(entries.length).toBeGreaterThan(turns.length);
    for (const entry of entries) expect(Object.isFrozen(entry)).toBe(true);
  });
});
