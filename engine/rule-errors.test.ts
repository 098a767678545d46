/**
 * A rule that cannot be evaluated is never "allowed": comparing values of incompatible types
 * gives the rule the result `error`, and a rule that gates the tool stops it (fail closed).
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../src/contract/bundle';
import { validateBundle } from '../src/lib/bundle/validate';
import { converse, exampleBundle, ruleResults } from '../server/agents/converse';

const CLOCK = '2025-03-15T10:00:00Z';
const DEMO = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

function withWindow(value: unknown): Bundle {
  const bundle = structuredClone(exampleBundle('card-disputes'));
  const rule = bundle.agent_tools!.find((t) => t.code === 'DISPUTE_CHARGE')!.rules!.pre!.constraint![0]!;
  (rule.when as { value: unknown }).value = value;
  return bundle;
}

describe('a rule that cannot be evaluated', () => {
  it('is reported by the validator at the operand', () => {
    const issues = validateBundle(withWindow('thirty'));
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'operand_type_mismatch',
        severity: 'error',
        loc: ['agent_tools', 0, 'rules', 'pre', 'constraint', 0, 'when', 'value'],
      }),
    ]);
  });

  it('gives the rule an error result and blocks the tool when run anyway', () => {
    const out = converse(withWindow('thirty'), CLOCK).say(DEMO);
    const window = out.trace.rules_evaluated.find((r) => r.rule_id === 'DISPUTE_WINDOW')!;
    expect(window.result).toBe('error');
    expect(window.reason).toContain('"thirty" is not a number of days');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(out.reply).toContain('DISPUTE_WINDOW could not be evaluated');
    expect(out.trace.decisions).toContainEqual(
      expect.objectContaining({ type: 'rule_error', rule: 'DISPUTE_WINDOW' }),
    );
    expect(out.trace.tools_invoked).toEqual([]);
  });

  it('a value of the wrong type from an integration makes a policy an error, not allowed', () => {
    const bundle: Bundle = {
      parameters: [
        { code: 'amount', type: 'numeric', usage: 'input', description: 'Amount of the payment' },
        { code: 'limit', type: 'numeric', usage: 'output', description: 'Spending limit' },
      ],
      integrations: [
        {
          code: 'limit-api',
          type: 'API',
          settings: { response_mapping: { limit: 'limit' }, test_curl_response: { limit: 'not set' } },
        },
        { code: 'pay-api', type: 'API' },
      ],
      agent_tools: [
        {
          code: 'PAY',
          name: 'Make a payment',
          main_tool: true,
          config: { params: { required: ['amount'] } },
          integrations: [{ code: 'pay-api' }],
          rules: {
            pre: {
              constraint: [
                {
                  code: 'LOAD_LIMIT',
                  when: null,
                  then: { action: 'API', settings: { integration: 'limit-api' } },
                },
                {
                  code: 'OVER_LIMIT',
                  when: { method: 'param_value', params: 'amount', operation: 'gt', value: { ref: 'limit' } },
                  then: { action: 'BLOCK', message: 'That is over your limit.' },
                },
              ],
            },
          },
        },
      ],
    };
    expect(validateBundle(bundle).filter((i) => i.severity === 'error')).toEqual([]);
    const out = converse(bundle, CLOCK).say('make a payment of $80');
    expect(ruleResults(out).OVER_LIMIT).toBe('error');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === 'OVER_LIMIT')!.reason).toContain(
      '"not set" is not a number',
    );
  });

  it('a part that fails on known values still decides an all-group', () => {
    const bundle = structuredClone(exampleBundle('card-disputes', { version_tag: 'v1' }));
    const rule = bundle.rules![0]!;
    // amount > 500 fails for $120, so the broken second part does not matter
    (rule.when as { all: { value: unknown }[] }).all[1]!.value = 'nope';
    const out = converse(bundle, CLOCK).say(DEMO);
    expect(ruleResults(out).VERIFIED_IDENTITY_ABOVE_500).toBe('allowed');
    expect(out.trace.decision).toBe('request_information');
  });

  it('a message-only rule that cannot be evaluated is reported and the turn goes on', () => {
    const bundle = structuredClone(exampleBundle('card-disputes', { version_tag: 'v1' }));
    const tool = bundle.agent_tools!.find((t) => t.code === 'DISPUTE_CHARGE')!;
    tool.rules!.pre!.constraint!.push({
      code: 'BIG_NOTE',
      when: { method: 'param_value', params: 'transaction-amount', operation: 'gt', value: 'lots' },
      then: { action: 'TEXT', message: 'That is a big one.' },
    });
    const out = converse(bundle, CLOCK).say(DEMO);
    expect(ruleResults(out).BIG_NOTE).toBe('error');
    expect(out.trace.decision).toBe('request_information');
  });
});
