/**
 * A generated bundle for the benchmarks: `tools` main tools with `rulesPerTool` constraint rules
 * each (two leaves: a number, a date window, an enum or an emptiness check), `globalRules` global
 * rules each applied to two tools, `params` parameters of four types and 20 integrations.
 */
import type { Bundle, Rule, Tool } from '../../src/contract/bundle';

export interface GeneratedShape {
  tools: number;
  params: number;
  globalRules: number;
  rulesPerTool: number;
}

const WORDS =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(
    ' ',
  );
export const word = (i: number) => `${WORDS[i % WORDS.length]}${Math.floor(i / WORDS.length)}`;

export function generateBundle({
  tools: TOOLS,
  params: PARAMS,
  globalRules: GLOBAL_RULES,
  rulesPerTool: RULES_PER_TOOL,
}: GeneratedShape): Bundle {
  const types = ['numeric', 'date', 'string', 'enum'] as const;
  const parameters = Array.from({ length: PARAMS }, (_, i) => {
    const type = types[i % types.length]!;
    return {
      code: `param-${i}`,
      type,
      usage: 'input' as const,
      description: `The ${word(i)} ${type === 'numeric' ? 'amount' : type}`,
      ...(type === 'enum' ? { values: [word(i), word(i + 1), word(i + 2)] } : {}),
      ...(type === 'string' ? { examples: [`ID-${1000 + i}`] } : {}),
      question: `What is the ${word(i)}?`,
    };
  });
  const leaf = (t: number, k: number) => {
    const p = parameters[(t * 3 + k) % PARAMS]!;
    if (p.type === 'numeric')
      return { method: 'param_value', params: p.code, operation: 'gt', value: 100 + k };
    if (p.type === 'date')
      return { method: 'param_value', params: p.code, operation: 'more_than_x_days', value: 10 + k };
    if (p.type === 'enum')
      return { method: 'param_value', params: p.code, operation: 'eq', value: p.values![0]! };
    return { method: 'param_value', params: p.code, operation: 'is_empty' };
  };
  const agent_tools: Tool[] = Array.from({ length: TOOLS }, (_, t) => ({
    code: `TOOL_${t}`,
    name: `${word(t)} ${word(t + 7)} service`,
    when_to_use: `The user asks about ${word(t)} or ${word(t + 3)} ${word(t + 11)}`,
    goal: `Handle ${word(t)} requests`,
    main_tool: true,
    requires_confirmation: t % 2 === 0,
    config: {
      params: {
        required: [
          parameters[(t * 3) % PARAMS]!.code,
          [parameters[(t * 3 + 1) % PARAMS]!.code, parameters[(t * 3 + 2) % PARAMS]!.code],
        ],
      },
    },
    integrations: [{ code: `api-${t % 20}` }],
    rules: {
      pre: {
        constraint: Array.from({ length: RULES_PER_TOOL }, (_, k) => ({
          code: `T${t}_R${k}`,
          when: { all: [leaf(t, k), leaf(t, k + 1)] },
          then: {
            action: 'BLOCK',
            message: `Blocked by rule ${k} for {{${parameters[(t * 3) % PARAMS]!.code}}}`,
          },
        })),
      },
      summary: {
        success: [
          { code: `T${t}_DONE`, when: null, then: { action: 'TEXT', message: 'Done with {{param-0}}.' } },
        ],
      },
    },
  }));
  const rules: Rule[] = Array.from({ length: GLOBAL_RULES }, (_, g) => ({
    code: `GLOBAL_${g}`,
    applied_to: [`TOOL_${g % TOOLS}`, `TOOL_${(g * 7) % TOOLS}`],
    when: leaf(g, 2),
    then: { action: 'BLOCK', message: 'Global block.' },
  }));
  const integrations = Array.from({ length: 20 }, (_, i) => ({
    code: `api-${i}`,
    type: 'API' as const,
    settings: {
      response_mapping: { 'param-0': 'result.value' },
      test_curl_response: { result: { value: `R${i}` } },
    },
  }));
  return {
    schema_version: 1,
    general_settings: { name: 'Bench agent' },
    parameters,
    integrations,
    rules,
    agent_tools,
  };
}
