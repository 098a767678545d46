/**
 * What the impact replay holds is bounded (a conversation's outcomes, and the answer), and how it
 * hands the conversations to the engine.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import type { ImpactCase } from '../../src/contract/impact';
import type { Engine, TurnInput } from '../../engine/contract';
import { SERVICE_SHARE, inlineWork } from '../work/engine-work';
import { REPLAY_LIMITS, runConversations } from '../../engine/impact/conversations';
import { BATCH_MESSAGES, createRunCache, replayImpact } from './impact-replay';

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
    share: SERVICE_SHARE,
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

describe('the impact replay hands the engine batches of conversations', () => {
  /** The inline work, recording how many messages each piece of work was given. */
  function countingWork() {
    const inline = inlineWork(engineWithReplies(10), () => []);
    const pieces: number[] = [];
    return {
      pieces,
      work: {
        conversations: (bundle: Bundle, cases: readonly ImpactCase[]) => {
          pieces.push(cases.reduce((n, c) => n + c.messages.length, 0));
          return inline.conversations(bundle, cases, SERVICE_SHARE);
        },
      },
    };
  }
  const cases = (n: number, messages: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `c${i}`,
      clock: '2025-01-01T00:00:00Z',
      messages: Array.from({ length: messages }, (_, j) => `m${i}-${j}`),
    }));

  it('each piece of work holds at most a batch of messages, and the answer is case by case in order', async () => {
    const { work, pieces } = countingWork();
    const results = await replayImpact({
      share: SERVICE_SHARE,
      work,
      baseline: { bundle: {}, key: 'base' },
      draft: { mark: 'd' },
      cases: cases(1_000, 5),
      signal: new AbortController().signal,
      cache: createRunCache(),
    });
    expect(results.map((r) => r.id)).toEqual(cases(1_000, 5).map((c) => c.id));
    expect(results.every((r) => r.status === 'changed' && r.turns_run === 5)).toBe(true);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(BATCH_MESSAGES);
    // Both sides of 5,000 messages, in full batches.
    expect(pieces.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(pieces.length).toBe((2 * 5_000) / BATCH_MESSAGES);
  });

  it('a case longer than a batch is a piece of work of its own', async () => {
    const { work, pieces } = countingWork();
    const [first, , third] = cases(3, 3);
    const long = { ...cases(1, BATCH_MESSAGES + 50)[0]!, id: 'long' };
    await replayImpact({
      share: SERVICE_SHARE,
      work,
      baseline: { bundle: {}, key: 'base' },
      draft: { mark: 'd' },
      cases: [first!, long, third!],
      signal: new AbortController().signal,
      cache: createRunCache(),
    });
    expect(pieces).toEqual([3, 3, BATCH_MESSAGES + 50, BATCH_MESSAGES + 50, 3, 3]);
  });

  it('the remembered baseline runs are not run again: a second draft runs its own side only', async () => {
    const { work, pieces } = countingWork();
    const cache = createRunCache();
    const input = {
      work,
      baseline: { bundle: {}, key: 'base' },
      cases: cases(300, 5),
      signal: new AbortController().signal,
      cache,
    };
    const first = await replayImpact({
      share: SERVICE_SHARE,
      ...input,
      draft: { mark: 'd' },
    });
    const ran = pieces.reduce((a, b) => a + b, 0);
    const second = await replayImpact({
      share: SERVICE_SHARE,
      ...input,
      draft: { mark: 'd' },
    });
    expect(pieces.reduce((a, b) => a + b, 0) - ran).toBe(1_500);
    expect(second).toEqual(first);
  });

  it('stops before the next piece of work once the signal is aborted', async () => {
    const { work, pieces } = countingWork();
    const controller = new AbortController();
    const aborting = {
      conversations: async (bundle: Bundle, list: readonly ImpactCase[]) => {
        if (pieces.length === 3) controller.abort();
        return work.conversations(bundle, list);
      },
    };
    await expect(
      replayImpact({
        share: SERVICE_SHARE,
        work: aborting,
        baseline: { bundle: {}, key: 'base' },
        draft: { mark: 'd' },
        cases: cases(1_000, 5),
        signal: controller.signal,
        cache: createRunCache(),
      }),
    ).rejects.toThrow(/cancelled/);
    expect(pieces).toHaveLength(4);
  });

  it('several batches at once: the same answer as one at a time, in order, the limit counted in order', async () => {
    /** The inline work, later pieces answered sooner, counting the pieces in flight. */
    function overlappingWork(size: number) {
      const inline = inlineWork(engineWithReplies(size), () => []);
      let inFlight = 0;
      let given = 0;
      const seen = { most: 0 };
      return {
        seen,
        work: {
          conversations: async (bundle: Bundle, list: readonly ImpactCase[]) => {
            seen.most = Math.max(seen.most, ++inFlight);
            await new Promise((resolve) => setTimeout(resolve, given++ % 3 === 0 ? 6 : 1));
            inFlight--;
            return inline.conversations(bundle, list, SERVICE_SHARE);
          },
        },
      };
    }
    // The second suite passes the answer's limit about halfway (both sides of 10 turns of 40,000 characters).
    const perCase = 2 * 10 * 40_000;
    for (const [size, n, messages] of [
      [10, 300, 5],
      [40_000, 2 * Math.ceil(REPLAY_LIMITS.answerChars / perCase), 10],
    ] as const) {
      const input = {
        baseline: { bundle: {}, key: 'base' },
        draft: { mark: 'd' },
        cases: cases(n, messages),
        signal: new AbortController().signal,
      };
      const oneAtATime = await replayImpact({
        share: SERVICE_SHARE,
        ...input,
        work: overlappingWork(size).work,
        cache: createRunCache(),
      });
      const { work, seen } = overlappingWork(size);
      const threeAtOnce = await replayImpact({
        share: SERVICE_SHARE,
        ...input,
        work,
        cache: createRunCache(),
        batchesAtOnce: 3,
      });
      expect(seen.most).toBe(3);
      expect(threeAtOnce).toEqual(oneAtATime);
      expect(threeAtOnce.map((r) => r.id)).toEqual(input.cases.map((c) => c.id));
      if (size > 10) expect(threeAtOnce.at(-1)!.error?.message).toMatch(/those before it/);
    }
  });

  it('with several batches at once, an aborted signal stops every one before its next piece of work', async () => {
    const { work, pieces } = countingWork();
    const controller = new AbortController();
    const aborting = {
      conversations: async (bundle: Bundle, list: readonly ImpactCase[]) => {
        if (pieces.length === 6) controller.abort();
        return work.conversations(bundle, list);
      },
    };
    await expect(
      replayImpact({
        share: SERVICE_SHARE,
        work: aborting,
        baseline: { bundle: {}, key: 'base' },
        draft: { mark: 'd' },
        cases: cases(1_000, 5),
        signal: controller.signal,
        cache: createRunCache(),
        batchesAtOnce: 3,
      }),
    ).rejects.toThrow(/cancelled/);
    expect(pieces.length).toBeLessThanOrEqual(6 + 3);
  });

  it('runConversations stops once the runs hold the limit, having run at least one', () => {
    const big = engineWithReplies(REPLAY_LIMITS.runChars / 4);
    const runs = runConversations(big, {}, cases(10, 1));
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.length).toBeLessThan(10);
    expect(runConversations(big, {}, cases(1, 1))).toHaveLength(1);
  });
});
