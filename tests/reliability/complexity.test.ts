/**
 * Work bounded by input size: each hostile shape of input is grown 2×, 4× and 8×, and the time
 * the validator or a turn takes may grow at most about linearly (a generous 4× allowance for
 * noise on a shared machine: a quadratic algorithm grows 64× at 8×, a cubic one 512×). Each time
 * is the fastest of several rounds, every round running every size, so a burst of load elsewhere
 * slows all sizes alike.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import { validateBundle } from '../../src/lib/bundle/validate';
import { engine } from '../../engine';
import { issueProblems } from '../../src/features/bundle-editor/markers';

const CLOCK = '2025-03-15T10:00:00Z';
const GROWTH = [1, 2, 4, 8];
const SLACK = 4;
const WARM_UP_ROUNDS = 2;
const ROUNDS = 10;

/** Times `make(base × g)()` for each growth factor g; asserts at most linear growth. */
function expectLinear(base: number, make: (n: number) => () => unknown): number[] {
  const runs = GROWTH.map((g) => make(base * g));
  for (let round = 0; round < WARM_UP_ROUNDS; round++) runs.forEach((run) => run());
  const times = runs.map(() => Infinity);
  for (let round = 0; round < ROUNDS; round++) {
    runs.forEach((run, i) => {
      const started = performance.now();
      run();
      times[i] = Math.min(times[i]!, performance.now() - started);
    });
  }
  // Times under 10 ms are mostly fixed costs, garbage collection and scheduling on a shared
  // machine; measure growth from at least that.
  const floor = Math.max(times[0]!, 10);
  GROWTH.forEach((g, i) => {
    expect(times[i]! / floor, `time at ${g}× (${times.map((t) => t.toFixed(2)).join(', ')} ms)`).toBeLessThan(
      g * SLACK,
    );
  });
  return times;
}

const validate = (bundle: unknown) => () => validateBundle(JSON.parse(JSON.stringify(bundle)));

function turn(bundle: unknown, text = 'I want to file a claim for $120') {
  return () => {
    const b = JSON.parse(JSON.stringify(bundle)) as Bundle;
    const out = engine.runTurn({
      bundle: b,
      state: engine.initialState(b, CLOCK, 'u'),
      text,
      clock: CLOCK,
      interactionId: 'm',
      userId: 'u',
    });
    expect(out.trace.decision).not.toBe('error');
  };
}

const claimTool = (extra: Record<string, unknown> = {}) => ({
  code: 'FILE_CLAIM',
  name: 'File a claim',
  main_tool: true,
  ...extra,
});

const messageBundle = (message: string) => ({
  parameters: [{ code: 'amount', type: 'numeric' }],
  agent_tools: [
    claimTool({ rules: { pre: { constraint: [{ when: null, then: { action: 'TEXT', message } }] } } }),
  ],
});

describe('work grows at most linearly with the input', () => {
  it('a long unclosed "{{" in a rule message: validation and the turn that shows it', () => {
    expectLinear(20_000, (n) => validate(messageBundle(`{{${' '.repeat(n)}`)));
    expectLinear(20_000, (n) => turn(messageBundle(`{{${' '.repeat(n)}`)));
  });

  // Not a regression of the old regex (which stopped at every brace), but of the scanner's rule
  // that a failed attempt is never scanned again.
  it('many "{{" openings and stray braces in a message', () => {
    expectLinear(5_000, (n) => validate(messageBundle('{{ a {{{ b } '.repeat(n))));
  });

  it('a long unclosed "{{" in a formula', () => {
    const bundle = (n: number) => ({
      parameters: [
        { code: 'amount', type: 'numeric' },
        { code: 'fee', type: 'numeric', usage: 'computed', computation: `{{amount}} + {{${' '.repeat(n)}` },
      ],
      agent_tools: [claimTool()],
    });
    expectLinear(20_000, (n) => validate(bundle(n)));
    expectLinear(20_000, (n) => turn(bundle(n)));
  });

  it('a long reference that nearly matches a long parameter code ("did you mean")', () => {
    const bundle = (n: number) => {
      const code = 'a'.repeat(n);
      return {
        parameters: [{ code, type: 'string' }],
        agent_tools: [claimTool({ config: { params: { required: [`${code.slice(1)}b`] } } })],
      };
    };
    expectLinear(4_000, (n) => validate(bundle(n)));
  });

  it('many misspelt references among many parameters', () => {
    const bundle = (n: number) => ({
      parameters: Array.from({ length: n }, (_, i) => ({ code: `parameter-number-${i}`, type: 'string' })),
      agent_tools: [
        claimTool({
          config: { params: { required: Array.from({ length: n }, (_, i) => `parameter-numbr-${i}`) } },
        }),
      ],
    });
    expectLinear(250, (n) => validate(bundle(n)));
  });

  it('many computed parameters named like Object.prototype members, reading a value not known yet', () => {
    const names = Object.getOwnPropertyNames(Object.prototype);
    const bundle = (n: number) => ({
      parameters: [
        { code: 'amount', type: 'numeric' },
        { code: 'reference', type: 'string' },
        ...Array.from({ length: n }, (_, i) => ({
          code: i < names.length ? names[i] : `${names[i % names.length]}-${i}`,
          type: 'numeric',
          usage: 'computed',
          computation: `{{reference}} + ${i}`,
        })),
      ],
      agent_tools: [claimTool({ config: { params: { required: ['amount'] } } })],
    });
    expectLinear(250, (n) => turn(bundle(n)));
  });

  it('a long chain of formulas, each computed from the next', () => {
    const bundle = (n: number) => ({
      parameters: [
        { code: 'amount', type: 'numeric' },
        ...Array.from({ length: n }, (_, i) => ({
          code: `step-${i}`,
          type: 'numeric',
          usage: 'computed',
          computation: i === n - 1 ? '{{amount}} + 1' : `{{step-${i + 1}}} + 1`,
        })),
      ],
      agent_tools: [claimTool()],
    });
    expectLinear(500, (n) => validate(bundle(n)));
    expectLinear(500, (n) => turn(bundle(n)));
  });

  it('a question rule whose condition reads many parameters', () => {
    const bundle = (n: number) => {
      const codes = Array.from({ length: n }, (_, i) => `p-${i}`);
      return {
        parameters: [
          { code: 'amount', type: 'numeric' },
          ...codes.map((code) => ({ code, type: 'string', usage: 'output' })),
        ],
        agent_tools: [
          claimTool({
            config: { params: { required: ['amount'] } },
            rules: {
              pre: {
                missing_info: [
                  {
                    when: { method: 'param_value', params: codes, operation: 'is_empty' },
                    then: { action: 'ASK_A_QUESTION', message: 'How much?' },
                  },
                ],
              },
            },
          }),
        ],
      };
    };
    expectLinear(2_000, (n) => turn(bundle(n), 'I want to file a claim'));
  });

  it('many global rules and many tools', () => {
    const bundle = (n: number) => ({
      rules: Array.from({ length: n }, (_, i) => ({
        code: `G${i}`,
        when: null,
        then: { action: 'TEXT', message: 'hi' },
      })),
      agent_tools: [claimTool(), ...Array.from({ length: n }, (_, i) => ({ code: `OTHER_${i}` }))],
    });
    expectLinear(500, (n) => turn(bundle(n)));
  });

  it("placing many issues in the editor's text (markers and the problems list)", () => {
    const case_ = (n: number) => {
      const mapping = Object.fromEntries(Array.from({ length: n }, (_, i) => [`param-${i}`, `path.${i}`]));
      const text = JSON.stringify(
        { integrations: [{ code: 'x', settings: { response_mapping: mapping } }] },
        null,
        2,
      );
      const issues = Array.from({ length: n }, (_, i) => ({
        code: 'unknown_parameter',
        severity: 'error' as const,
        message: 'unknown',
        loc: ['integrations', 0, 'settings', 'response_mapping', `param-${i}`],
      }));
      return () => issueProblems(text, issues, 'validator');
    };
    expectLinear(500, case_);
  });
});
