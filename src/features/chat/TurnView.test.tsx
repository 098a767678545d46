// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { TurnView } from './TurnView';
import type { Turn } from '../../domain/transcript/transcript';

afterEach(cleanup);
const noop = () => {};

function turnWith(results: string[]): Turn {
  const trace = TolerantTrace.parse({
    interaction_id: 'm1',
    decision: 'block_with_explanation',
    rules_evaluated: results.map((result, i) => ({
      rule_id: `RULE_${i}`,
      rule_type: 'policy',
      predicate: 'p',
      result,
      reason: 'r',
    })),
  });
  return {
    id: 'm1',
    index: 0,
    userText: 'hi',
    replyText: 'no',
    suggestions: [],
    decision: 'block_with_explanation',
    trace,
    textUnavailable: false,
  };
}

describe('TurnView', () => {
  it('says when a rule of the turn could not be evaluated, and which', () => {
    render(
      <TurnView
        turn={turnWith(['allowed', 'error'])}
        selected={false}
        isLast
        busy={false}
        onSelect={noop}
        onSuggestion={noop}
      />,
    );
    const badge = screen.getByText('rule error');
    expect(badge.getAttribute('title')).toBe('Could not be evaluated: RULE_1');
    expect(screen.getByText('blocked')).toBeTruthy();
  });

  it('shows no such badge when every rule was evaluated', () => {
    render(
      <TurnView
        turn={turnWith(['allowed', 'blocked'])}
        selected={false}
        isLast
        busy={false}
        onSelect={noop}
        onSuggestion={noop}
      />,
    );
    expect(screen.queryByText(/rule error/)).toBeNull();
  });
});
