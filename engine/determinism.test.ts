import { describe, expect, it } from 'vitest';
import { converse, exampleBundle } from '../server/agents/converse';
import { engine } from './index';

const SCRIPT = ['I need to change my flight', 'ABC123', 'next friday', 'yes', 'cancel booking BIZ314', 'hi'];

function run(clock: string, bundle = exampleBundle('flight-changes')) {
  const c = converse(bundle, clock);
  return SCRIPT.map((t) => JSON.stringify(c.say(t)));
}

describe('determinism', () => {
  it('the same conversation twice gives identical outputs, byte for byte', () => {
    expect(run('2025-03-15T10:00:00Z')).toEqual(run('2025-03-15T10:00:00Z'));
  });

  it('a fresh copy of the bundle (as after a restart) gives identical outputs', () => {
    const copy = JSON.parse(JSON.stringify(exampleBundle('flight-changes'))) as ReturnType<
      typeof exampleBundle
    >;
    expect(run('2025-03-15T10:00:00Z', copy)).toEqual(run('2025-03-15T10:00:00Z'));
  });

  it('replaying from a stored state (a rerun branch) gives the same turn', () => {
    const bundle = exampleBundle('card-disputes', { version_tag: 'v1' });
    const clock = '2025-03-15T10:00:00Z';
    const c = converse(bundle, clock);
    c.say('dispute a $120 charge from 10 days ago');
    const stored = JSON.parse(JSON.stringify(c.turns[0]!.state)) as Record<string, unknown>;
    const original = c.say('It was a duplicate charge');
    const replay = engine.runTurn({
      bundle,
      state: stored,
      text: 'It was a duplicate charge',
      clock,
      interactionId: 'msg-2',
      userId: 'user-1',
    });
    expect(JSON.stringify(replay)).toBe(JSON.stringify(original));
  });

  it('date rules follow the clock, not the wall clock', () => {
    const bundle = exampleBundle('card-disputes');
    const on = (clock: string) => converse(bundle, clock).say('dispute a $120 charge from March 1, 2025');
    expect(on('2025-03-05T09:00:00Z').trace.decision).toBe('request_information');
    expect(on('2025-03-20T09:00:00Z').trace.decision).toBe('block_with_explanation');
    expect(
      on('2025-03-20T09:00:00Z').trace.rules_evaluated.find((r) => r.rule_id === 'DISPUTE_WINDOW')!.reason,
    ).toContain('is 19');
  });

  it('relative dates are read against the clock', () => {
    const out = converse(exampleBundle('card-disputes'), '2024-02-29T23:30:00Z').say(
      'dispute a $10 charge from yesterday',
    );
    expect(out.trace.understanding?.extracted_params['transaction-date']).toBe('2024-02-28');
  });
});
