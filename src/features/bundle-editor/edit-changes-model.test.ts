import { describe, expect, it } from 'vitest';
import type { DiffResult, Difference } from '../../contract/analysis';
import {
  differenceWords,
  notAnalysedWords,
  outcomeWords,
  regionTitle,
  summarizeDiff,
  witnessWords,
} from './edit-changes-model';

const windowWidened: Difference = {
  tool: 'DISPUTE_CHARGE',
  region: {
    words: 'transaction-date 9 to 29 days before the clock',
    parts: [
      {
        param: 'transaction-date',
        axis: 'days_ago',
        words: 'transaction-date 9 to 29 days before the clock',
        min: 9,
        max: 29,
      },
    ],
  },
  points: 1,
  before: {
    decision: 'block_with_explanation',
    rules: ['DISPUTE_WINDOW'],
    tools_invoked: [],
    reply: 'Too late.',
  },
  after: { decision: 'proceed', rules: [], tools_invoked: ['DISPUTE_CHARGE'], reply: 'Done.' },
  witness: {
    tool: 'DISPUTE_CHARGE',
    clock: '2026-11-28T12:00:00.000Z',
    values: { amount: 120, 'transaction-date': '2026-11-18', merchant: 'Coffee Corner' },
    messages: ['I want to dispute a charge of $120 at Coffee Corner from 10 days ago'],
  },
};

const result = (over: Partial<DiffResult>): DiffResult => ({
  equivalent: false,
  differences: [],
  capped: false,
  not_analysed: [],
  regions: 12,
  ...over,
});

describe('a difference in words', () => {
  it('names the tool, the region and both outcomes with their deciding rules', () => {
    expect(differenceWords(windowWidened)).toBe(
      'DISPUTE_CHARGE — transaction-date 9 to 29 days before the clock: blocked (DISPUTE_WINDOW) → proceed',
    );
    expect(regionTitle(windowWidened)).toBe(
      'DISPUTE_CHARGE — transaction-date 9 to 29 days before the clock',
    );
  });

  it('shows decisions it does not know as they are, and several deciding rules in order', () => {
    expect(outcomeWords({ decision: 'escalate', rules: ['A', 'B'], tools_invoked: [], reply: '' })).toBe(
      'escalate (A, B)',
    );
    expect(outcomeWords({ decision: 'request_confirmation', rules: [], tools_invoked: [], reply: '' })).toBe(
      'needs confirmation',
    );
  });

  it('says the witness values and the clock', () => {
    expect(witnessWords(windowWidened.witness)).toBe(
      'amount = 120, transaction-date = 2026-11-18, merchant = Coffee Corner · clock 2026-11-28T12:00:00.000Z',
    );
    expect(witnessWords({ tool: 'T', clock: '2026-01-01T00:00:00Z', values: {} })).toBe(
      'no values given · clock 2026-01-01T00:00:00Z',
    );
  });
});

describe('the summary of a diff', () => {
  it('claims equivalence only when the engine proved it', () => {
    expect(summarizeDiff(result({ equivalent: true })).equivalent).toBe(
      'Equivalent: no decision changes (12 regions checked)',
    );
    expect(summarizeDiff(result({ equivalent: false })).equivalent).toBeNull();
  });

  it('never claims equivalence when something was not analysed or a cap was hit', () => {
    const partial = summarizeDiff(
      result({
        equivalent: true,
        not_analysed: [{ tool: 'REFUND', param: 'reason', reason: 'free text is not partitioned' }],
      }),
    );
    expect(partial.equivalent).toBeNull();
    expect(partial.headline).toBe(
      'No decision change found (12 regions checked), but not everything was analysed:',
    );
    expect(partial.limits).toEqual(['REFUND · reason: free text is not partitioned']);
    const capped = summarizeDiff(result({ equivalent: true, capped: true }));
    expect(capped.equivalent).toBeNull();
    expect(capped.limits[0]).toMatch(/stopped at its limits/);
  });

  it('counts the differences', () => {
    expect(summarizeDiff(result({ differences: [windowWidened] })).headline).toBe(
      '1 decision change (12 regions checked)',
    );
    expect(notAnalysedWords([{ reason: 'too many regions' }])).toEqual(['too many regions']);
  });
});
