import { describe, expect, it } from 'vitest';
import { parseTurnQuery } from './turn-query';

describe('a decision in the turn search', () => {
  it('is read by the word the app shows for it, as by its wire value', () => {
    expect(parseTurnQuery({ decision: ['blocked'] }).decisions).toEqual([
      'block_with_explanation',
      'blocked',
      'block',
    ]);
    expect(parseTurnQuery({ decision: ['needs confirmation'] }).decisions).toEqual(['request_confirmation']);
    expect(parseTurnQuery({ decision: ['Needs_Information'] }).decisions).toEqual(['request_information']);
    expect(parseTurnQuery({ decision: ['block_with_explanation'] }).decisions).toEqual([
      'block_with_explanation',
    ]);
    expect(parseTurnQuery({ decision: ['proceed', 'blocked'] }).decisions).toEqual([
      'proceed',
      'block_with_explanation',
      'blocked',
      'block',
    ]);
  });

  it('keeps a decision it does not know as it is written', () => {
    expect(parseTurnQuery({ decision: ['escalate'] }).decisions).toEqual(['escalate']);
  });
});
