import { describe, expect, it } from 'vitest';
import { formulaProblem } from './formula-syntax';

describe('formulaProblem', () => {
  it('accepts the formulas the language has', () => {
    for (const ok of [
      '{{amount}} * 0.02',
      '{{fare-class}} == "Business" ? 0 : 150',
      'round({{x}} / 3, 2)',
      'if({{a}} > 3, "big", "small")',
      'max({{a}}, 4, 2) % 5',
      '!{{flag}} || days_since({{d}}) >= 8',
    ])
      expect(formulaProblem(ok), ok).toBeNull();
  });

  it.each([
    ['{{amount}} * * 2', "'*' at character 14 where a value is expected"],
    ['{{amount}} * 2 +', 'the formula ends where a value is expected'],
    ['twice {{amount}}', "unknown word 'twice' at character 1"],
    ['{{amount}} / 0', 'a division by zero'],
    ['{{amount}} % -0', 'a remainder by zero'],
    ['(1 + 2', 'expected ) at the end'],
    ['1 2', "'2' at character 3 does not continue the formula"],
    ['sqrt(4)', "unknown function 'sqrt'"],
    ['round()', 'round takes 1 to 2 arguments, not 0'],
    ['', 'the formula is empty'],
    ['{{amount', 'an unclosed {{ at character 1'],
    ['1 # 2', 'unexpected "# 2" at character 3'],
  ])('refuses %j: %s', (formula, problem) => {
    expect(formulaProblem(formula)).toContain(problem);
  });

  it('refuses a formula nested deeper than it may, without exhausting the stack', () => {
    expect(formulaProblem(`${'('.repeat(5000)}1${')'.repeat(5000)}`)).toContain('nests too deeply');
  });
});
