import { describe, expect, it } from 'vitest';
import { parseClock } from './clock';
import { computeFormula, evaluateFormula, formulaRefs } from './formula';

const scope = (values: Record<string, unknown>) => ({ values, clock: parseClock('2025-03-15T00:00:00Z') });
const FEE = '{{fare-class}} == "Business" ? 0 : ({{fare-class}} == "Premium Economy" ? 75 : 150)';

describe('formulas', () => {
  it('computes a fee from the fare class', () => {
    expect(evaluateFormula(FEE, scope({ 'fare-class': 'Economy' }))).toBe(150);
    expect(evaluateFormula(FEE, scope({ 'fare-class': 'premium economy' }))).toBe(75);
    expect(evaluateFormula(FEE, scope({ 'fare-class': 'Business' }))).toBe(0);
  });

  it('is unknown while a referenced value is unknown', () => {
    expect(evaluateFormula(FEE, scope({}))).toBeUndefined();
    expect(evaluateFormula('{{a}} * 2', scope({}))).toBeUndefined();
  });

  it('does arithmetic with precedence, functions and dates', () => {
    expect(evaluateFormula('1 + 2 * 3 - -1', scope({}))).toBe(8);
    expect(evaluateFormula('round({{x}} / 3, 2)', scope({ x: 10 }))).toBe(3.33);
    expect(evaluateFormula('max({{a}}, 4, 2)', scope({ a: 9 }))).toBe(9);
    expect(evaluateFormula('days_since({{d}})', scope({ d: '2025-03-05' }))).toBe(10);
    expect(evaluateFormula('concat("TX-", {{n}})', scope({ n: 7 }))).toBe('TX-7');
    expect(evaluateFormula('{{a}} > 3 && {{b}} == "x"', scope({ a: 4, b: 'X' }))).toBe(true);
  });

  it('never throws on malformed input', () => {
    for (const bad of ['', '1 +', '((1)', '{{a', 'foo bar', '1 / 0', '"unterminated']) {
      expect(() => evaluateFormula(bad, scope({ a: 1 }))).not.toThrow();
    }
    expect(evaluateFormula('1 / 0', scope({}))).toBeUndefined();
  });

  it('lists its references', () => {
    expect(formulaRefs(FEE)).toEqual(['fare-class', 'fare-class']);
  });
});

describe('a formula that cannot run', () => {
  it('is an error, with why, apart from a value not known yet', () => {
    expect(computeFormula('{{a}} * 2', scope({}))).toEqual({ kind: 'unknown' });
    expect(computeFormula('{{a}} * 2', scope({ a: 4 }))).toEqual({ kind: 'value', value: 8 });
    expect(computeFormula('{{a}} * * 2', scope({ a: 4 }))).toEqual({
      kind: 'error',
      reason: "the formula does not parse: '*' at character 9 where a value is expected",
    });
    expect(computeFormula('twice {{a}}', scope({}))).toMatchObject({ kind: 'error' });
    expect(computeFormula('{{a}} / 0', scope({ a: 4 }))).toEqual({
      kind: 'error',
      reason: 'the formula cannot run: a division by zero',
    });
    expect(computeFormula('{{a}} / {{b}}', scope({ a: 4, b: 0 }))).toEqual({
      kind: 'error',
      reason: 'a division by zero',
    });
    expect(computeFormula('{{a}} * 2', scope({ a: 'lots' }))).toMatchObject({ kind: 'error' });
  });
});
