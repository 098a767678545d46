import { describe, expect, it } from 'vitest';
import type { Witness } from '../../contract/analysis';
import { serializeTestCase } from '../../lib/test-cases';
import { caseFromWitness } from './witness-case';

const witness: Witness = {
  tool: 'BOOK_ROOM',
  clock: '2026-11-28T12:00:00.000Z',
  values: { nights: 10 },
  messages: ['book a suite from next friday for 10 nights', 'yes'],
};

describe('a test case from a witness', () => {
  it('expects the head side on the last turn and the replayed decisions before it', () => {
    const built = caseFromWitness({
      agentId: 'hotel',
      name: 'BOOK_ROOM — nights > 7 and ≤ 14',
      witness,
      replayed: [
        { decision: 'request_confirmation', rules: { MAX_NIGHTS: 'allowed' } },
        { decision: 'block_with_explanation', rules: { MAX_NIGHTS: 'blocked' } },
      ],
      expected: { decision: 'block_with_explanation', rules: ['MAX_NIGHTS'], tools_invoked: [], reply: '' },
    });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.testCase).toMatchObject({
      name: 'BOOK_ROOM — nights > 7 and ≤ 14',
      agent_id: 'hotel',
      clock: '2026-11-28T12:00:00.000Z',
      turns: [
        { say: 'book a suite from next friday for 10 nights', expect: { decision: 'request_confirmation' } },
        { say: 'yes', expect: { decision: 'block_with_explanation', rules: { MAX_NIGHTS: 'blocked' } } },
      ],
    });
    // Only the decision is expected of earlier turns: nothing the analysis did not establish.
    expect(built.testCase.turns[0]!.expect).toEqual({ decision: 'request_confirmation' });
    expect(serializeTestCase(built.testCase)).toContain('"format": "threadline-test-case"');
  });

  it('takes a deciding rule’s result from the decision when the replay did not evaluate it', () => {
    const built = caseFromWitness({
      agentId: 'hotel',
      name: 'n',
      witness: { ...witness, messages: ['book 10 nights'] },
      replayed: [{ decision: 'block_with_explanation', rules: {} }],
      expected: { decision: 'block_with_explanation', rules: ['MAX_NIGHTS'], tools_invoked: [], reply: '' },
    });
    expect(built.ok && built.testCase.turns[0]!.expect.rules).toEqual({ MAX_NIGHTS: 'blocked' });
  });

  it('expects what the replay decided when the analysis gave no outcome (a lint finding)', () => {
    const built = caseFromWitness({
      agentId: 'hotel',
      name: 'dead_rule: NEVER',
      witness: { ...witness, messages: ['book 10 nights'] },
      replayed: [{ decision: 'request_information', rules: {} }],
    });
    expect(built.ok && built.testCase.turns).toEqual([
      { say: 'book 10 nights', expect: { decision: 'request_information' } },
    ]);
  });

  it('refuses a witness without messages, a replay that is short, and an agent id the format refuses', () => {
    expect(
      caseFromWitness({ agentId: 'hotel', name: 'n', witness: { ...witness, messages: [] }, replayed: [] })
        .ok,
    ).toBe(false);
    const short = caseFromWitness({
      agentId: 'hotel',
      name: 'n',
      witness,
      replayed: [{ decision: 'proceed', rules: {} }],
    });
    expect(short).toEqual({ ok: false, errors: ["The replay answered 1 of the witness's 2 messages."] });
    const badAgent = caseFromWitness({
      agentId: 'my agent',
      name: 'n',
      witness: { ...witness, messages: ['hi'] },
      replayed: [{ decision: 'proceed', rules: {} }],
    });
    expect(badAgent.ok).toBe(false);
    expect(!badAgent.ok && badAgent.errors.join()).toMatch(/agent_id/);
  });
});
