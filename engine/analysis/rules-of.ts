/** A tool's rules in the order its run evaluates them. */
import type { CompiledTool, StagedRule } from '../types';

export const rulesOf = (ct: CompiledTool): StagedRule[] => [
  ...ct.globals,
  ...ct.pre,
  ...ct.requiredRules,
  ...ct.missingInfo,
  ...ct.success,
  ...ct.fail,
  ...ct.summaryMissingInfo,
];
