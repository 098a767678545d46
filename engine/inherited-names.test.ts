/**
 * Names are ordinary strings: a parameter, entity, tool, integration or rule named like an
 * Object.prototype member behaves exactly like any other name, in the engine and the validator.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../src/contract/bundle';
import { validateBundle } from '../src/lib/bundle/validate';
import { converse } from '../server/agents/converse';

const CLOCK = '2025-03-15T10:00:00Z';
const INHERITED_NAMES = [
  '__proto__',
  'toString',
  'constructor',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
];

function bundleRequiring(name: string): Bundle {
  return {
    general_settings: { name: 'Claims' },
    parameters: [
      { code: name, type: 'string', question: `Which ${name}?` },
      {
        code: 'doubled',
        type: 'string',
        usage: 'computed',
        computation: `concat({{${name}}}, "-", {{${name}}})`,
      },
      { code: 'claim-id', type: 'string', usage: 'output' },
    ],
    entities: [{ name, type: 'normal', parameters: [name] }],
    integrations: [
      {
        code: name,
        type: 'API',
        settings: { test_curl_response: { id: 'C-1' }, response_mapping: { 'claim-id': 'id' } },
      },
    ],
    agent_tools: [
      {
        code: 'FILE_CLAIM',
        name: 'File a claim',
        main_tool: true,
        config: { params: { required: [name] } },
        integrations: [{ code: name }],
        rules: {
          pre: {
            constraint: [
              {
                code: name,
                when: { method: 'param_value', params: name, operation: 'eq', value: 'forbidden' },
                then: { action: 'BLOCK', message: `Not for {{${name}}}.` },
              },
            ],
          },
          summary: {
            success: [
              {
                when: null,
                then: { action: 'TEXT', message: `Filed {{${name}}} ({{doubled}}, {{claim-id}}).` },
              },
            ],
          },
        },
      },
    ],
  } as unknown as Bundle;
}

describe('names like Object.prototype members', () => {
  it.each(INHERITED_NAMES)('a bundle using %s everywhere is valid', (name) => {
    const errors = validateBundle(bundleRequiring(name)).filter((i) => i.severity === 'error');
    expect(errors).toEqual([]);
  });

  it.each(INHERITED_NAMES)('a reference to an undefined %s is reported as unknown', (name) => {
    const bundle = {
      agent_tools: [{ code: 'T', config: { params: { required: [name] } } }],
      rules: [
        { code: 'R', applied_to: [name], when: null, then: { action: 'TEXT', message: `{{${name}}}` } },
      ],
      entities: [{ name: 'e', sub_entities: [name] }],
    };
    const codes = validateBundle(bundle).map((i) => i.code);
    expect(codes).toContain('unknown_parameter');
    expect(codes).toContain('unknown_tool');
    expect(codes).toContain('unknown_entity');
    expect(codes).toContain('unknown_placeholder');
  });

  it.each(INHERITED_NAMES)('a required %s is asked for, then filled, then used', (name) => {
    const c = converse(bundleRequiring(name), CLOCK);
    const first = c.say('I want to file a claim');
    expect(first.trace.decision).toBe('request_information');
    expect(first.reply).toBe(`Which ${name}?`);
    expect(first.trace.rules_evaluated.find((r) => r.rule_id === 'FILE_CLAIM.params.required')?.reason).toBe(
      `missing ${name}; blocked: the tool waits for it`,
    );
    const second = c.say('ticket seven');
    expect(second.trace.decision).toBe('proceed');
    expect(second.trace.understanding?.extracted_params[name]).toBe('ticket seven');
    expect(second.trace.entities[`${name}.${name}`]).toBe('ticket seven');
    expect(second.reply).toBe('Filed ticket seven (ticket seven-ticket seven, C-1).');
    expect(second.trace.tools_invoked.map((t) => [t.integration, t.result])).toEqual([[name, 'success']]);
  });

  it.each(INHERITED_NAMES)('a rule reading %s blocks on its value like any other', (name) => {
    const c = converse(bundleRequiring(name), CLOCK);
    c.say('I want to file a claim');
    const out = c.say('forbidden');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(out.reply).toBe('Not for forbidden.');
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === name)?.result).toBe('blocked');
  });

  it('computed parameters named like prototype members settle, and read nothing inherited', () => {
    const parameters = INHERITED_NAMES.map((name, i) => ({
      code: name,
      type: 'numeric',
      usage: 'computed',
      computation: i === 0 ? '{{amount}} * 2' : `{{${INHERITED_NAMES[i - 1]}}} + 1`,
    }));
    const bundle = {
      parameters: [{ code: 'amount', type: 'numeric' }, ...parameters],
      agent_tools: [
        { code: 'PAY', name: 'Pay', main_tool: true, config: { params: { required: ['amount'] } } },
      ],
    } as unknown as Bundle;
    expect(validateBundle(bundle).filter((i) => i.severity === 'error')).toEqual([]);
    const c = converse(bundle, CLOCK);
    const asked = c.say('I want to pay');
    expect(asked.trace.decision).toBe('request_information');
    expect(Object.keys(asked.trace.entities)).toEqual([]);
    const paid = c.say('pay $10');
    expect(paid.trace.decision).toBe('proceed');
    expect(INHERITED_NAMES.map((n) => paid.trace.entities[n])).toEqual([
      20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
    ]);
  });
});
