/** Where a rule, a tool or a parameter sits in the bundle as given (a JSON path), for findings. */
import type { Bundle } from '../../src/contract/bundle';
import type { CompiledBundle, CompiledTool, RuleStage, StagedRule } from '../types';

export type Path = (string | number)[];

const STAGE_PATH: Record<Exclude<RuleStage, 'global'>, [string, string, keyof CompiledTool]> = {
  constraint: ['pre', 'constraint', 'pre'],
  required_parameters: ['pre', 'required_parameters', 'requiredRules'],
  missing_info: ['pre', 'missing_info', 'missingInfo'],
  success: ['summary', 'success', 'success'],
  fail: ['summary', 'fail', 'fail'],
  summary_missing_info: ['summary', 'missing_info', 'summaryMissingInfo'],
};

function toolsKey(raw: Bundle): string {
  const doc = raw as Record<string, unknown>;
  return Array.isArray(doc.agent_tools) || !Array.isArray(doc.tools) ? 'agent_tools' : 'tools';
}

export function toolLoc(raw: Bundle, code: string): Path {
  const key = toolsKey(raw);
  const list = (raw as Record<string, unknown>)[key];
  const i = Array.isArray(list) ? list.findIndex((t) => (t as { code?: unknown })?.code === code) : -1;
  return i < 0 ? [key] : [key, i];
}

export function ruleLoc(raw: Bundle, compiled: CompiledBundle, staged: StagedRule, toolCode: string): Path {
  if (staged.stage === 'global') {
    const i = (compiled.bundle.rules ?? []).indexOf(staged.rule);
    return i < 0 ? ['rules'] : ['rules', i];
  }
  const [group, list, field] = STAGE_PATH[staged.stage];
  const ct = compiled.toolByCode.get(toolCode);
  const i = ct ? (ct[field] as StagedRule[]).indexOf(staged) : -1;
  const tool = toolLoc(raw, toolCode);
  return i < 0 ? [...tool, 'rules', group, list] : [...tool, 'rules', group, list, i];
}

export function paramLoc(raw: Bundle, code: string): Path {
  const list = (raw as Record<string, unknown>).parameters;
  const i = Array.isArray(list) ? list.findIndex((p) => (p as { code?: unknown })?.code === code) : -1;
  return i < 0 ? ['parameters'] : ['parameters', i];
}
