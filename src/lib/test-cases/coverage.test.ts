import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../contract/bundle';
import type { ObservedTrace } from './compare';
import { bundleRulesAndTools, coverage } from './coverage';

const bundle = {
  rules: [{ code: 'GLOBAL_A', then: { action: 'BLOCK' } }, { then: { action: 'BLOCK' } }],
  agent_tools: [
    {
      code: 'TOOL_A',
      rules: { pre: { constraint: [{ code: 'PRE_A', then: { action: 'BLOCK' } }] } },
    },
    { code: 'TOOL_B', rules: { summary: { success: [{ then: { action: 'RESPOND' } }] } } },
  ],
} as unknown as Bundle;

const trace = (decision: string, rules: [string, string][], tools: string[] = []): ObservedTrace => ({
  decision,
  rules_evaluated: rules.map(([rule_id, result]) => ({ rule_id, result, reason: '' })),
  tools_invoked: tools.map((tool) => ({ tool, result: 'success' })),
  entities: {},
});

describe('coverage', () => {
  it('lists the rules by the ids the engine writes in traces (code, or path when none)', () => {
    expect(bundleRulesAndTools(bundle)).toEqual({
      rules: ['GLOBAL_A', 'rules[1]', 'PRE_A', 'TOOL_B.summary.success[0]'],
      tools: ['TOOL_A', 'TOOL_B'],
    });
  });

  it('reports rules never evaluated, never blocked, never allowed, tools never invoked, decisions never reached', () => {
    const c = coverage(bundle, [
      trace('block_with_explanation', [
        ['GLOBAL_A', 'blocked'],
        ['PRE_A', 'allowed'],
        ['SYNTHETIC.params.required', 'blocked'],
      ]),
      trace('proceed', [['GLOBAL_A', 'allowed']], ['TOOL_A']),
    ]);
    expect(c.neverEvaluated).toEqual(['rules[1]', 'TOOL_B.summary.success[0]']);
    expect(c.neverBlocked).toEqual(['rules[1]', 'PRE_A', 'TOOL_B.summary.success[0]']);
    expect(c.neverAllowed).toEqual(['rules[1]', 'TOOL_B.summary.success[0]']);
    expect(c.toolsNeverInvoked).toEqual(['TOOL_B']);
    expect(c.decisionsNeverReached).toEqual(['request_confirmation', 'request_information']);
  });

  it('reports everything untested for an empty run', () => {
    const c = coverage(bundle, []);
    expect(c.neverEvaluated).toEqual(c.rules);
    expect(c.toolsNeverInvoked).toEqual(['TOOL_A', 'TOOL_B']);
    expect(c.decisionsNeverReached).toHaveLength(4);
  });
});
