/**
 * Small bundles that once made the engine contradict itself, fail open, or read values into the
 * wrong place, each run as a user would run it. Fixtures: `fixtures/*.json`.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../src/contract/bundle';
import { validateBundle } from '../src/lib/bundle/validate';
import { converse, ruleResults } from '../server/agents/converse';
import { fixture } from './fixtures/load.fixture';

const CLOCK = '2025-03-15T12:00:00Z';

const errors = (bundle: Bundle) => validateBundle(bundle).filter((i) => i.severity === 'error');

describe('a duration is a quantity, and a date goes to the tool the message is about', () => {
  it('"for 6 days from 2 April 2025" fills days and start, not the other tool\'s date', () => {
    const out = converse(fixture('duration'), CLOCK).say('Buy a pass for 6 days from 2 April 2025');
    expect(out.trace.understanding?.extracted_params).toEqual({ days: 6, start: '2025-04-02' });
    expect(out.trace.decision).toBe('request_confirmation');
  });

  it('"for 5 days" fills days and leaves the start to be asked', () => {
    const out = converse(fixture('duration'), CLOCK).say('Buy a pass for 5 days');
    expect(out.trace.understanding?.extracted_params).toEqual({ days: 5 });
    expect(out.trace.decision).toBe('request_information');
  });

  it('"OK now go ahead" confirms and does not move a start date given before', () => {
    const c = converse(fixture('duration'), CLOCK);
    expect(c.say('Buy a pass, 3 days, starting 1 April 2025').trace.decision).toBe('request_confirmation');
    const out = c.say('OK now go ahead');
    expect(out.trace.understanding?.extracted_params).toEqual({});
    expect(out.trace.decision).toBe('proceed');
    expect(out.trace.tools_invoked[0]?.parameters).toEqual({ days: 3, start: '2025-04-01' });
  });
});

describe('the decision follows the rule results', () => {
  it('a BLOCK rule that holds in summary.success blocks the turn', () => {
    const out = converse(fixture('summary-block'), CLOCK).say('Check account AC-1234');
    const closed = out.trace.rules_evaluated.find((r) => r.rule_id === 'CLOSED')!;
    expect(closed.result).toBe('blocked');
    expect(closed.reason).toContain('"closed"');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(out.reply).toBe('That account is closed.');
  });

  it('every rule evaluated on known values that lets the turn go on is allowed, whatever its action', () => {
    const out = converse(fixture('false-condition'), CLOCK).say('Top up 40 dollars');
    expect(ruleResults(out)).toEqual({
      BIG_NEEDS_YES: 'allowed',
      HUGE_BLOCKED: 'allowed',
      BIG_NEEDS_REASON: 'allowed',
      'TOP_UP.params.required': 'allowed',
    });
    for (const r of out.trace.rules_evaluated) expect(r.reason).toContain('40');
    expect(out.trace.decision).toBe('proceed');
  });
});

describe('a rule reading the user profile through a reference', () => {
  it('is an authentication rule and its reason shows both values compared', () => {
    const out = converse(fixture('auth-type-ref'), CLOCK).say('Unlock the phone, my PIN is 9999');
    const viaRef = out.trace.rules_evaluated.find((r) => r.rule_id === 'PIN_VIA_REF')!;
    expect(viaRef).toMatchObject({ rule_type: 'authentication', result: 'blocked' });
    expect(viaRef.reason).toContain('9999');
    expect(viaRef.reason).toContain('1234');
    const direct = out.trace.rules_evaluated.find((r) => r.rule_id === 'PIN_DIRECT')!;
    expect(direct.rule_type).toBe('authentication');
    expect(direct.reason).toContain('9999');
    expect(out.trace.decision).toBe('block_with_explanation');
  });
});

describe('the validator refuses what cannot run', () => {
  const cases: [string, string, (string | number)[]][] = [
    ['formula-syntax-error', 'formula_invalid', ['parameters', 2, 'computation']],
    ['formula-trailing-op', 'formula_invalid', ['parameters', 2, 'computation']],
    ['formula-words', 'formula_invalid', ['parameters', 2, 'computation']],
    ['formula-div0', 'formula_invalid', ['parameters', 2, 'computation']],
    ['entity-param-not-in-entity', 'unknown_entity_parameter', ['rules', 0, 'when', 'params', 'param']],
    ['gt-no-value', 'missing_operand', ['rules', 0, 'when', 'value']],
    ['computation-conflict', 'computation_conflict', ['computations', 0, 'formula']],
    ['between-reversed', 'between_order', ['rules', 0, 'when', 'value']],
  ];
  for (const [name, code, loc] of cases)
    it(`${name}: ${code} at ${loc.join('.')}`, () => {
      expect(errors(fixture(name))).toEqual([expect.objectContaining({ code, loc })]);
    });

  for (const name of ['formula-syntax-error', 'formula-trailing-op', 'formula-words', 'formula-div0'])
    it(`${name}, run anyway: the rule on the computed value is an error and the turn blocks`, () => {
      const out = converse(fixture(name), CLOCK).say('Top up 50 dollars please');
      expect(ruleResults(out).R1).toBe('error');
      expect(out.trace.decision).toBe('block_with_explanation');
      expect(out.trace.tools_invoked).toEqual([]);
    });
});
