/** The engine never throws: any text, any state shape, a minimal bundle. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Trace } from '../src/contract/trace';
import { exampleBundle } from '../server/agents/converse';
import { engine } from './index';

const CLOCK = '2025-03-15T10:00:00Z';

describe('robustness', () => {
  it('answers any text with a valid trace, with no error fallback', () => {
    const bundle = exampleBundle('card-disputes');
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 200 }), { minLength: 1, maxLength: 4 }),
        (texts) => {
          let state = engine.initialState(bundle, CLOCK, 'u');
          for (const [i, text] of texts.entries()) {
            const out = engine.runTurn({
              bundle,
              state,
              text,
              clock: CLOCK,
              interactionId: `m${i}`,
              userId: 'u',
            });
            expect(out.trace.decision).not.toBe('error');
            expect(Trace.safeParse(out.trace).success).toBe(true);
            state = out.state;
          }
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });

  it('handles huge, empty-ish and unicode messages, an empty bundle and a garbage state', () => {
    const bundle = exampleBundle('flight-changes');
    for (const text of [' ', '\u0000', '🙂🙂 ¿qué? 日本語 $', 'change '.repeat(20_000), '"'.repeat(1000)]) {
      const out = engine.runTurn({
        bundle,
        state: { values: 'x', pending: { tool: 42 } },
        text,
        clock: CLOCK,
        interactionId: 'm',
        userId: 'u',
      });
      expect(out.trace.decision).not.toBe('error');
    }
    const empty = engine.runTurn({
      bundle: {},
      state: engine.initialState({}, CLOCK, 'u'),
      text: 'hello',
      clock: 'not a date',
      interactionId: 'm',
      userId: 'u',
    });
    expect(empty.trace.intent).toBe('general_question');
    expect(engine.welcome({}, CLOCK).title).toBe('Agent');
  });
});
