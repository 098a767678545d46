import { describe, expect, it } from 'vitest';
import type { BundleIssue } from '../../contract/api';
import { analyzeText, bundleText } from '../../domain/bundles/analysis';
import {
  blockingProblems,
  issueProblems,
  lintProblems,
  markerProblems,
  problemsOf,
  rangeOf,
} from './markers';

const bundle = {
  parameters: [{ code: 'transaction-date', type: 'date' }],
  agent_tools: [
    {
      code: 'DISPUTE_CHARGE',
      rules: {
        pre: {
          constraint: [
            {
              code: 'DISPUTE_WINDOW',
              when: {
                method: 'param_value',
                params: 'transaction-dat',
                operation: 'more_than_x_days',
                value: 8,
              },
              then: { action: 'BLOCK' },
            },
          ],
        },
      },
    },
  ],
};
const text = bundleText(bundle);
const lines = text.split('\n');
const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;

describe('problems from the shared validator', () => {
  it('puts each issue on the line and column its loc points to', () => {
    const problems = problemsOf(text, analyzeText(text), null);
    const unknown = problems.find((p) => p.code === 'unknown_parameter');
    expect(unknown).toBeDefined();
    expect(unknown!.exact).toBe(true);
    expect(unknown!.startLineNumber).toBe(lineOf('"transaction-dat"'));
    expect(text.slice(unknown!.start, unknown!.end)).toBe('"transaction-dat"');
    expect(unknown!.startColumn).toBe(lines[unknown!.startLineNumber - 1]!.indexOf('"transaction-dat"') + 1);
    expect(unknown!.source).toBe('validator');
  });

  it('marks the nearest ancestor when the path does not exist (a missing field)', () => {
    const issue: BundleIssue = {
      code: 'missing_field',
      message: 'no message',
      loc: ['agent_tools', 0, 'rules', 'pre', 'constraint', 0, 'then', 'message'],
      severity: 'error',
    };
    const [p] = issueProblems(text, [issue], 'service');
    expect(p!.exact).toBe(false);
    expect(p!.startLineNumber).toBe(lineOf('"then"'));
  });

  it("maps a service 422's issues the same way, without repeating the validator's", () => {
    const analysis = analyzeText(text);
    const own = analysis.kind === 'parsed' ? analysis.issues : [];
    const extra: BundleIssue = {
      code: 'engine_refused',
      message: 'the service says no',
      loc: ['parameters', 0, 'type'],
      severity: 'error',
    };
    const problems = problemsOf(text, analysis, [...own, extra]);
    expect(problems.filter((p) => p.source === 'service')).toHaveLength(1);
    const svc = problems.find((p) => p.source === 'service')!;
    expect(text.slice(svc.start, svc.end)).toBe('"date"');
    // in text order
    expect(problems.map((p) => p.start)).toEqual([...problems.map((p) => p.start)].sort((x, y) => x - y));
  });

  it('lists a JSON syntax error, which Monaco marks itself', () => {
    const broken = '{\n  "parameters": [\n}';
    const problems = problemsOf(broken, analyzeText(broken), null);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ source: 'json', startLineNumber: 3, startColumn: 1 });
    expect(markerProblems(problems)).toEqual([]);
  });

  it('falls back to the document start when nothing can be located', () => {
    expect(rangeOf('   ', ['a'])).toEqual({ start: 0, end: 1, exact: false });
  });
});

describe('problems from the lint', () => {
  const rulePath = ['agent_tools', 0, 'rules', 'pre', 'constraint', 0];
  const done = {
    kind: 'done' as const,
    clock: '2026-11-28T12:00:00.000Z',
    response: {
      findings: [
        {
          code: 'dead_rule',
          severity: 'warning' as const,
          message: 'DISPUTE_WINDOW can never hold.',
          loc: { path: [...rulePath, 'when'] },
          rule: 'DISPUTE_WINDOW',
          tool: 'DISPUTE_CHARGE',
          witness: { tool: 'DISPUTE_CHARGE', clock: '2026-11-28T12:00:00.000Z', values: { amount: 600 } },
        },
      ],
      capped: false,
      not_analysed: [],
      regions: 4,
    },
  };

  it("marks each finding at its path, as the validator's issues are, and never blocks a send", () => {
    const analysis = analyzeText(text);
    const problems = problemsOf(text, analysis, null, done);
    const finding = problems.find((p) => p.source === 'lint')!;
    expect(finding).toMatchObject({
      severity: 'warning',
      code: 'dead_rule',
      exact: true,
      startLineNumber: lineOf('"when"'),
      lint: { rule: 'DISPUTE_WINDOW', tool: 'DISPUTE_CHARGE', witness: { values: { amount: 600 } } },
    });
    expect(markerProblems(problems)).toContain(finding);
    expect(blockingProblems(problems)).not.toContain(finding);
  });

  it('says so in one problem when the lint could not run, listed but not marked', () => {
    const problems = lintProblems(text, { kind: 'failed', message: 'not implemented yet' });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^Lint could not run: not implemented yet\./);
    expect(markerProblems(problems)).toEqual([]);
    expect(lintProblems(text, { kind: 'unavailable' })[0]!.message).toMatch(/^Lint could not run: /);
    expect(lintProblems(text, { kind: 'linting' })).toEqual([]);
  });

  it('keeps the last findings in place while a newer text is linted', () => {
    const during = lintProblems(text, { kind: 'linting', previous: done });
    expect(during.map((p) => [p.code, p.startLineNumber])).toEqual([['dead_rule', lineOf('"when"')]]);
  });

  it("shows a newer text's quick findings at once, keeping the last findings of the tools' runs", () => {
    const shadowed = {
      code: 'shadowed_rule',
      severity: 'warning' as const,
      message: 'MAX_AMOUNT never decides.',
      loc: { path: rulePath },
      rule: 'MAX_AMOUNT',
      tool: 'DISPUTE_CHARGE',
    };
    const previous = {
      ...done,
      response: { ...done.response, findings: [...done.response.findings, shadowed] },
    };
    const quick = { ...done, response: { ...done.response, findings: [] } };
    const during = lintProblems(text, { kind: 'linting', previous, quick });
    // The dead rule is gone from the newer text (its quick lint says so); the shadowed rule, which
    // only the tools' runs can confirm or clear, stays until they are decided.
    expect(during.map((p) => p.code)).toEqual(['shadowed_rule']);
  });

  it('names what the lint left unanalysed', () => {
    const partial = {
      ...done,
      response: {
        ...done.response,
        capped: true,
        not_analysed: [{ tool: 'REFUND', reason: 'too many regions' }],
      },
    };
    const note = lintProblems(text, partial).find((p) => p.source === 'lint-status');
    expect(note?.message).toBe(
      'Lint did not analyse everything (it stopped at its limits): REFUND. Findings may be missing there.',
    );
  });
});
