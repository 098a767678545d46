import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { countRuleResults, summarizeTurns } from './thread-summary';

describe('thread summary', () => {
  it('counts rule results in first-seen order, unknown and empty results included', () => {
    const trace = TolerantTrace.parse({
      rules_evaluated: [
        { result: 'allowed' },
        { result: 'blocked' },
        { result: 'allowed' },
        { result: 'odd' },
        {},
      ],
    });
    expect(countRuleResults(trace)).toEqual([
      ['allowed', 2],
      ['blocked', 1],
      ['odd', 1],
      ['unknown', 1],
    ]);
  });

  it('summarises turns with and without traces', () => {
    const trace = TolerantTrace.parse({
      interaction_id: 'm1',
      intent: 'dispute_charge',
      decision: 'block_with_explanation',
      tools_invoked: [{ tool: 'x' }],
    });
    const rows = summarizeTurns([
      { id: 'm1', index: 0, decision: '', userText: 'hi', trace },
      { id: 'm2', index: 1, decision: 'proceed', userText: 'again' },
    ]);
    expect(rows[0]).toMatchObject({
      intent: 'dispute_charge',
      decision: 'block_with_explanation',
      toolsInvoked: 1,
    });
    expect(rows[1]).toMatchObject({ intent: '', decision: 'proceed', ruleCounts: [], toolsInvoked: 0 });
  });
});
