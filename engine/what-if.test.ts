import { describe, expect, it } from 'vitest';
import { exampleBundle } from '../server/agents/converse';
import { recordConversation, recordedTurns } from './fixtures/conversations.fixture';
import { whatIf, WhatIfInputError } from './what-if';

const CLOCK = '2025-03-15T12:00:00.000Z';
const turns = recordedTurns();

describe('a what-if with no edits is the recorded turn, byte for byte', () => {
  it('covers every example agent and fixture conversation', () => {
    expect(turns.length).toBeGreaterThan(60);
  });
  for (const t of turns)
    it(t.name, () => {
      const again = whatIf({
        bundle: t.bundle,
        state: t.stateBefore,
        clock: t.clock,
        userId: 'user-1',
        recorded: t.output.trace,
        edits: [],
      });
      const { overridden, ...output } = again;
      expect(overridden).toEqual([]);
      expect(JSON.stringify(output)).toBe(JSON.stringify(t.output));
    });
});

const dispute = (text: string) =>
  recordConversation({
    name: 'dispute',
    bundle: exampleBundle('card-disputes'),
    clock: CLOCK,
    messages: [text],
  })[0]!;

describe('edits re-decide the turn with the understanding held fixed', () => {
  const blocked = dispute('I want to dispute a charge of $120 at Coffee Corner from 10 days ago');
  const run = (edits: Parameters<typeof whatIf>[0]['edits']) =>
    whatIf({
      bundle: blocked.bundle,
      state: blocked.stateBefore,
      clock: CLOCK,
      userId: 'user-1',
      recorded: blocked.output.trace,
      edits,
    });

  it('a date inside the window lets the dispute go on', () => {
    expect(blocked.output.trace.decision).toBe('block_with_explanation');
    const out = run([{ code: 'transaction-date', value: '2025-03-07' }]);
    expect(out.trace.decision).toBe('request_information');
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === 'DISPUTE_WINDOW')?.result).toBe('allowed');
    expect(out.trace.intent).toBe(blocked.output.trace.intent);
    expect(out.trace.understanding?.extracted_params).toMatchObject({ 'transaction-date': '2025-03-07' });
  });

  it('edits combine: an amount above 500 inside the window meets the identity rule', () => {
    const out = run([
      { code: 'transaction-date', value: '2025-03-14' },
      { code: 'transaction-amount', value: 620 },
    ]);
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === 'VERIFIED_IDENTITY_ABOVE_500')?.result).toBe(
      'blocked',
    );
  });

  it('a value made missing is asked for', () => {
    const out = run([{ code: 'transaction-date', missing: true }]);
    expect(out.trace.decision).toBe('request_information');
    expect(out.trace.entities).not.toHaveProperty('transaction.transaction-date');
  });

  it('an unknown parameter or a repeated edit is refused with a readable reason', () => {
    expect(() => run([{ code: 'no-such-thing', value: 1 }])).toThrow(WhatIfInputError);
    expect(() => run([{ code: 'no-such-thing', value: 1 }])).toThrow(/no parameter "no-such-thing"/);
    expect(() =>
      run([
        { code: 'transaction-amount', value: 1 },
        { code: 'transaction-amount', value: 2 },
      ]),
    ).toThrow(/edited twice/);
  });

  it('a trace whose tool the bundle does not have is refused', () => {
    const trace = {
      ...blocked.output.trace,
      decisions: [{ type: 'activate_tool', tool: 'NOPE', via: 'words' }],
    };
    expect(() =>
      whatIf({
        bundle: blocked.bundle,
        state: blocked.stateBefore,
        clock: CLOCK,
        userId: 'u',
        recorded: trace,
        edits: [],
      }),
    ).toThrow(/does not enable/);
  });
});
