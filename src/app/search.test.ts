import { describe, expect, it } from 'vitest';
import { parseWorkspaceSearch } from './search';

describe('workspace search params', () => {
  it('keeps valid values and drops missing ones', () => {
    expect(parseWorkspaceSearch({ task: 't1', turn: 'm1', node: 'rule:r1' })).toEqual({
      task: 't1',
      turn: 'm1',
      node: 'rule:r1',
    });
  });
  it('turns numbers (JSON-parsed by the router) back into strings', () => {
    expect(parseWorkspaceSearch({ task: 123 })).toEqual({ task: '123' });
  });
  it('drops values that are too long instead of failing', () => {
    expect(parseWorkspaceSearch({ task: 'x'.repeat(600), tab: 'trace' })).toEqual({ tab: 'trace' });
  });
  it("carries a rule page's agent and rule", () => {
    expect(
      parseWorkspaceSearch({ view: 'rule', agent: 'card-disputes', rule: 'DISPUTE_WINDOW', x: 1 }),
    ).toEqual({
      view: 'rule',
      agent: 'card-disputes',
      rule: 'DISPUTE_WINDOW',
    });
  });
});
