/**
 * Normalisation of a (schema-valid) bundle onto one vocabulary, so the validator and the engine
 * read a single shape: `tools` → `agent_tools`, `applies_to` → `applied_to`, the legacy
 * kebab-case condition methods → the bundle-mode methods. Pure; never mutates its input.
 */
import type { Bundle, Condition, ConditionLeaf, Rule, Tool } from '../../contract/bundle';
import { lookupTable } from './lookup';

/**
 * Legacy method → its bundle-mode meaning. `operation` is the default when the legacy leaf has
 * none; `message` marks a leaf that reads the user's current message rather than a parameter.
 */
export const LEGACY_METHODS = lookupTable<{ method: string; operation?: string; message?: true }>({
  'existing-parameters-in-conversation': { method: 'param_value', operation: 'is_not_empty' },
  'missing-parameters-in-conversation': { method: 'param_value', operation: 'is_empty' },
  'tool-required-params-filled': { method: 'param_value', operation: 'all_have_value' },
  'user-profile': { method: 'entity_param' },
  'users-question': { method: 'param_extracted_current', operation: 'about', message: true },
});

export function isLeaf(c: Condition): c is ConditionLeaf {
  return typeof c === 'object' && c !== null && 'method' in c;
}

function normalizeCondition(c: Condition | null | undefined): Condition | null {
  if (c == null) return null;
  if ('all' in c && Array.isArray(c.all))
    return { all: c.all.map((x) => normalizeCondition(x)!).filter(Boolean) };
  if ('any' in c && Array.isArray(c.any))
    return { any: c.any.map((x) => normalizeCondition(x)!).filter(Boolean) };
  if ('not' in c && c.not) return { not: normalizeCondition(c.not as Condition)! };
  if (!isLeaf(c)) return c;
  const legacy = LEGACY_METHODS[c.method];
  if (!legacy) return c;
  return {
    ...c,
    method: legacy.method,
    operation: c.operation ?? legacy.operation,
    ...(legacy.message ? { reads_message: true } : {}),
    legacy_method: c.method,
  };
}

function normalizeRule(rule: Rule): Rule {
  const { applies_to, ...rest } = rule;
  const applied = rest.applied_to ?? applies_to;
  return {
    ...rest,
    ...(applied !== undefined ? { applied_to: applied } : {}),
    when: normalizeCondition(rule.when),
  };
}

const ruleList = (rules: Rule[] | undefined) => (rules ? rules.map(normalizeRule) : undefined);

function normalizeTool(tool: Tool): Tool {
  const pre = tool.rules?.pre;
  const summary = tool.rules?.summary;
  return {
    ...tool,
    config: tool.config && {
      ...tool.config,
      triggers: tool.config.triggers && {
        ...tool.config.triggers,
        when: normalizeCondition(tool.config.triggers.when),
      },
    },
    rules: tool.rules && {
      ...tool.rules,
      pre: pre && {
        ...pre,
        constraint: ruleList(pre.constraint),
        required_parameters: ruleList(pre.required_parameters),
        missing_info: ruleList(pre.missing_info),
      },
      summary: summary && {
        ...summary,
        success: ruleList(summary.success),
        fail: ruleList(summary.fail),
        missing_info: ruleList(summary.missing_info),
      },
    },
  };
}

/** The bundle with aliases resolved; `agent_tools` is always present (possibly empty). */
export function normalizeBundle(bundle: Bundle): Bundle & { agent_tools: Tool[] } {
  const { tools, ...rest } = bundle;
  const computations = bundle.computations?.map(({ applies_to, ...c }) => ({
    ...c,
    ...((c.applied_to ?? applies_to) !== undefined ? { applied_to: c.applied_to ?? applies_to } : {}),
  }));
  return {
    ...rest,
    rules: ruleList(bundle.rules),
    computations,
    agent_tools: (bundle.agent_tools ?? tools ?? []).map(normalizeTool),
  };
}
