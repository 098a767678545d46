import { describe, expect, it } from 'vitest';
import { exampleBundle } from '../server/agents/converse';
import { whatIf } from './what-if';
import type { Trace } from '../src/contract/trace';
import { predictedBase } from './predicted-base';

const CLOCK = '2025-03-15T12:00:00.000Z';
const BLOCKED = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

const ask = (version: string, texts: string[]) =>
  predictedBase(exampleBundle('card-disputes', { version_id: version }), {
    taskId: 'task-1',
    agentId: 'card-disputes',
    bundleHash: 'h',
    clock: CLOCK,
    userId: 'user-1',
    earlier: texts.slice(0, -1).map((text, i) => ({ interactionId: `m${i + 1}`, text })),
    turn: { interactionId: `m${texts.length}`, text: texts.at(-1)! },
  });

describe('the base of a turn predicted from its thread', () => {
  it('the blocked dispute: the engine blocks it, and why not offers the 8-day boundary and the window change', () => {
    const out = ask('v2-8-day-window', [BLOCKED]);
    if (!out.ok) throw new Error(out.message);
    expect(out.replayed).toBe(0);
    expect(out.answer.recorded.decision).toBe('block_with_explanation');
    const summaries = out.answer.why_not!.items.map((i) => i.summary);
    expect(summaries).toContainEqual(expect.stringMatching(/^transaction-date on or after 2025-03-07/));
    expect(summaries).toContainEqual(
      expect.stringMatching(/^DISPUTE_WINDOW with a window of 10 days or more/),
    );
    expect(out.answer.parameters.map((p) => p.code)).toContain('transaction-amount');
    expect(out.answer.bundle_source).toEqual({ agent_id: 'card-disputes', version_id: '', bundle_hash: 'h' });
  });

  it('a later turn is decided from the state the earlier messages built, and a what-if on it takes edits', () => {
    const out = ask('v1-30-day-window', [BLOCKED, 'It was a duplicate charge', 'jane@example.com']);
    if (!out.ok) throw new Error(out.message);
    expect(out.replayed).toBe(2);
    // The decisions the replay gave the earlier turns, for the browser to check against the recorded ones.
    expect(out.earlierDecisions).toHaveLength(2);
    expect(out.earlierDecisions).toEqual(['request_information', 'request_information']);
    expect(out.answer.recorded.decision).toBe('request_confirmation');
    const input = out.answer.engine_input!;
    // The values of the earlier turns are in the state before the turn.
    expect(JSON.stringify(input.state_before)).toContain('duplicate');
    const again = (edits: Parameters<typeof whatIf>[0]['edits']) =>
      whatIf({
        bundle: exampleBundle('card-disputes', { version_id: 'v1-30-day-window' }),
        state: input.state_before,
        clock: input.clock,
        userId: input.user_id,
        recorded: input.recorded as unknown as Trace,
        edits,
      });
    // No edits: the predicted turn as it is; an amount over 500: the identity rule blocks.
    expect(again([]).trace.decision).toBe('request_confirmation');
    expect(out.answer.differences).toEqual([]);
    const over = again([{ code: 'transaction-amount', value: 620 }]);
    expect(over.trace.decision).toBe('block_with_explanation');
    expect(
      over.trace.rules_evaluated.find((r) => r.rule_id.includes('VERIFIED_IDENTITY_ABOVE_500'))?.result,
    ).toBe('blocked');
  });

  it('a thread it cannot replay: the reason, no answer', () => {
    const out = ask('v2-8-day-window', [BLOCKED, '']);
    expect(out).toEqual({
      ok: false,
      message: expect.stringContaining('The text of this turn is not known'),
    });
  });
});
