/**
 * A compiled bundle that differs from one already compiled in a single rule (its condition
 * changed, or the rule removed) or in one tool's required parameters, derived from it without
 * normalising, indexing and hashing the whole bundle again. It is remembered for the changed
 * bundle object, so a turn run with that object uses it. Why-not tries several such changes on
 * bundles of thousands of rules; compiling each from scratch would cost far more than the turn.
 */
import type { Bundle, Rule } from '../src/contract/bundle';
import { rememberCompiled } from './compile';
import type { CompiledBundle, CompiledTool, StagedRule } from './types';

export type CompiledPatch =
  { rule: StagedRule; replacement: Rule | null } | { tool: string; required: (string | string[])[] };

const LISTS = [
  'globals',
  'pre',
  'requiredRules',
  'missingInfo',
  'success',
  'fail',
  'summaryMissingInfo',
] as const;

/**
 * Registers for `changed` (the bundle as given, with the change applied) the compiled form of
 * `base` with `patch`. False when the patch cannot be derived faithfully (removing a rule before a
 * rule without a code would renumber that rule's id): the bundle is then compiled as usual.
 */
export function compileVariant(changed: Bundle, base: CompiledBundle, patch: CompiledPatch): boolean {
  let patchTool: (ct: CompiledTool) => CompiledTool;
  if ('rule' in patch) {
    const { rule, replacement } = patch;
    const next: StagedRule | null = replacement ? { ...rule, rule: replacement } : null;
    const memo = new Map<StagedRule[], StagedRule[]>();
    let faithful = true;
    const swap = (list: StagedRule[]): StagedRule[] => {
      const hit = memo.get(list);
      if (hit) return hit;
      const at = list.indexOf(rule);
      let out = list;
      if (at >= 0) {
        if (next) out = list.map((s) => (s === rule ? next : s));
        else {
          if (list.slice(at + 1).some((s) => s.stage === rule.stage && !s.rule.code)) faithful = false;
          out = list.filter((s) => s !== rule);
        }
      }
      memo.set(list, out);
      return out;
    };
    patchTool = (ct) => {
      const lists = LISTS.map((k) => swap(ct[k]));
      return lists.every((l, i) => l === ct[LISTS[i]!])
        ? ct
        : { ...ct, ...Object.fromEntries(LISTS.map((k, i) => [k, lists[i]])) };
    };
    const tools = base.tools.map(patchTool);
    if (!faithful) return false;
    register(changed, base, tools);
    return true;
  }
  patchTool = (ct) => (ct.code === patch.tool ? { ...ct, required: patch.required } : ct);
  register(changed, base, base.tools.map(patchTool));
  return true;
}

function register(changed: Bundle, base: CompiledBundle, tools: CompiledTool[]): void {
  const toolByCode = new Map(tools.map((t) => [t.code, t]));
  const toolByName = new Map([...base.toolByName].map(([name, t]) => [name, tools[t.index]!]));
  rememberCompiled(changed, {
    ...base,
    // Another bundle than the one the state came from: the turn carries the state over as a
    // rerun with the changed bundle would.
    fingerprint: `${base.fingerprint}+variant`,
    tools,
    toolByCode,
    toolByName,
  });
}
