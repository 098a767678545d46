import { describe, expect, it } from 'vitest';
import type { TurnOutcome } from '../../src/contract/impact';
import { diffOutcomes } from './diff';
import { compareRuns } from './conversations';

const outcome = (
  decision: string,
  rules: Record<string, string> = {},
  tools: string[] = [],
  reply = 'ok',
  entities: Record<string, unknown> = {},
): TurnOutcome => ({
  reply,
  trace: {
    decision,
    rules_evaluated: Object.entries(rules).map(([rule_id, result]) => ({
      rule_id,
      result,
      reason: `${rule_id} ${result}`,
    })),
    tools_invoked: tools.map((tool) => ({ tool, result: 'ok' })),
    entities,
  },
});

describe('diffOutcomes', () => {
  it('finds no difference between equal outcomes, whatever the reply or values held', () => {
    const a = outcome('proceed', { A: 'allowed' }, ['t'], 'one reply', { x: 1 });
    const b = outcome('proceed', { A: 'allowed' }, ['t'], 'another reply', { x: 2 });
    expect(diffOutcomes(a, b)).toEqual([]);
  });

  it('names the decision first, then rules (changed, gone, new), then tools', () => {
    const before = outcome('block_with_explanation', { WINDOW: 'blocked', ID: 'allowed', SAME: 'allowed' }, [
      'freeze',
    ]);
    const after = outcome('proceed', { SAME: 'allowed', WINDOW: 'allowed', NEW: 'not_applicable' }, [
      'dispute',
    ]);
    expect(diffOutcomes(before, after)).toEqual([
      { kind: 'decision', subject: '', before: 'block_with_explanation', after: 'proceed' },
      { kind: 'rule', subject: 'WINDOW', before: 'blocked', after: 'allowed' },
      { kind: 'rule', subject: 'ID', before: 'allowed', after: 'not evaluated' },
      { kind: 'rule', subject: 'NEW', before: 'not evaluated', after: 'not_applicable' },
      { kind: 'tool', subject: 'freeze', before: 'invoked', after: 'not invoked' },
      { kind: 'tool', subject: 'dispute', before: 'not invoked', after: 'invoked' },
    ]);
  });

  it('counts a rule result change alone as a change, the first evaluation of a rule counting', () => {
    const before = outcome('proceed', { A: 'allowed' });
    const after = outcome('proceed', { A: 'requires_confirmation' });
    expect(diffOutcomes(before, after)).toEqual([
      { kind: 'rule', subject: 'A', before: 'allowed', after: 'requires_confirmation' },
    ]);
    const twice: TurnOutcome = {
      ...before,
      trace: {
        ...before.trace,
        rules_evaluated: [
          { rule_id: 'A', result: 'allowed', reason: '' },
          { rule_id: 'A', result: 'blocked', reason: '' },
        ],
      },
    };
    expect(diffOutcomes(before, twice)).toEqual([]);
  });

  it('ignores the order tools were invoked in', () => {
    expect(diffOutcomes(outcome('proceed', {}, ['a', 'b']), outcome('proceed', {}, ['b', 'a']))).toEqual([]);
  });

  it('stays linear: 20,000 rules compared in one pass', () => {
    const rules = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`R${i}`, 'allowed']));
    const flipped = { ...rules, R19999: 'blocked' };
    expect(diffOutcomes(outcome('proceed', rules), outcome('proceed', flipped))).toHaveLength(1);
  });
});

describe('compareRuns', () => {
  const c = { id: 'case', clock: '2025-01-01T00:00:00Z', messages: ['one', 'two', 'three'] };
  it('lists only the turns that differ, with both outcomes', () => {
    const r = compareRuns(
      c,
      { outcomes: [outcome('proceed'), outcome('proceed'), outcome('proceed')] },
      { outcomes: [outcome('proceed'), outcome('request_information'), outcome('proceed')] },
    );
    expect(r.status).toBe('changed');
    expect(r.turns_run).toBe(3);
    expect(
      r.changes.map((x) => [x.turn, x.message, x.before.trace.decision, x.after.trace.decision]),
    ).toEqual([[1, 'two', 'proceed', 'request_information']]);
  });

  it('is "same" when no turn differs', () => {
    const run = { outcomes: [outcome('proceed'), outcome('proceed'), outcome('proceed')] };
    expect(compareRuns(c, run, run)).toEqual({ id: 'case', status: 'same', turns_run: 3, changes: [] });
  });

  it('says which side stopped, and at which turn, when a turn could not run', () => {
    const r = compareRuns(
      c,
      { outcomes: [outcome('proceed'), outcome('proceed'), outcome('proceed')] },
      { outcomes: [outcome('block_with_explanation')], error: { turn: 1, message: 'work budget exceeded' } },
    );
    expect(r.status).toBe('error');
    expect(r.turns_run).toBe(1);
    expect(r.error).toEqual({ side: 'draft', turn: 1, message: 'work budget exceeded' });
    expect(r.changes).toHaveLength(1);
  });
});
