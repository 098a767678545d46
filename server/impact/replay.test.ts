/** What the impact replay holds is bounded: a conversation's outcomes, and the answer. */
import { describe, expect, it } from 'vitest';
import type { Engine, TurnInput } from '../engine/contract';
import { inlineWork } from '../work/engine-work';
import { createRunCache, REPLAY_LIMITS, replayImpact } from './replay';

/** An engine whose every reply is `size` characters, the draft's differing from the baseline's. */
function engineWithReplies(size: number): Engine {
  return {
    initialState: () => ({}),
    welcome: () => ({ title: '', greeting: '', suggestions: [] }),
    runTurn: (input: TurnInput) => ({
      reply: ((input.bundle as { mark?: string }).mark ?? 'b').repeat(size),
      suggestions: [],
      state: {},
      trace: {
        interaction_id: input.interactionId,
        intent: 'x',
        entities: {},
        parameters_extracted: [],
        rules_evaluated: [],
        tools_considered: [],
        tools_invoked: [],
        decision: (input.bundle as { mark?: string }).mark ? 'proceed' : 'block_with_explanation',
      },
    }),
  } as unknown as Engine;
}

const replay = (size: number, cases: number, messages: number) =>
  replayImpact({
    work: inlineWork(engineWithReplies(size), () => []),
    baseline: { bundle: {}, key: 'base' },
    draft: { mark: 'd' },
    cases: Array.from({ length: cases }, (_, i) => ({
      id: `c${i}`,
      clock: '2025-01-01T00:00:00Z',
      messages: Array.from({ length: messages }, () => 'hello'),
    })),
    signal: new AbortController().signal,
    cache: createRunCache(),
  });

describe('the impact replay holds a bounded amount', () => {
  it('a conversation whose outcomes pass the limit ends in error, saying so', async () => {
    const [result] = await replay(600_000, 1, 10);
    expect(result!.status).toBe('error');
    expect(result!.error?.message).toMatch(/Too long to compare/);
    expect(result!.turns_run).toBeLessThan(4);
  });

  it('cases past the answer limit are errors without their changes; earlier ones are whole', async () => {
    const perCase = 2 * 10 * 150_000; // both sides of 10 turns of 150,000 characters
    const cases = Math.ceil(REPLAY_LIMITS.answerChars / perCase) + 3;
    const results = await replay(150_000, cases, 10);
    expect(results[0]!.status).toBe('changed');
    expect(results[0]!.changes).toHaveLength(10);
    const last = results.at(-1)!;
    expect(last.status).toBe('error');
    expect(last.changes).toEqual([]);
    expect(last.error?.message).toMatch(/the changes of this case and those before it/);
  });
});
