/**
 * One rule's evaluation: its id, type, readable predicate, result and reason. The result says
 * what the rule did to the turn, the same way for every kind of rule: `allowed` (it was checked
 * on known values and lets the tool go on: its condition does not hold, or it holds and its
 * effect does not stop the tool), `blocked` (it stops the tool), `requires_confirmation` (the
 * tool waits for the user's yes), `not_applicable` (it could not be decided because a value it
 * reads is not known yet, or it was not run) or `error` (its inputs are present but bad, so it
 * could not be evaluated: never reported as allowed). The reason says which outcome happened and
 * shows the values compared.
 */
import type { RuleEvaluation } from '../src/contract/trace';
import {
  evaluateCondition,
  readsProfile,
  renderCondition,
  type ConditionContext,
  type ConditionResult,
} from './conditions';
import { spend } from '../src/lib/bundle/work-budget';
import type { CompiledBundle, StagedRule } from './types';

export type RuleType = 'policy' | 'authentication' | 'confirmation' | 'conditional' | 'sequencing';
export type RuleResult = 'allowed' | 'blocked' | 'requires_confirmation' | 'not_applicable' | 'error';

const BLOCKING = new Set(['BLOCK', 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL']);
const ACTIVATING = new Set(['ACTIVATE_ANOTHER_TOOL', 'ACTIVATE_SUB_TOOL']);

export const isBlocking = (r: StagedRule) => BLOCKING.has(r.rule.then?.action);
export const isActivating = (r: StagedRule) => ACTIVATING.has(r.rule.then?.action);
/**
 * The tool an ACTIVATE_* / BLOCK_AND_ACTIVATE_ANOTHER_TOOL rule activates: `then.settings.tool`,
 * or the first of `then.settings.tools[].name` that names an enabled tool (by code or by name).
 * `named` is what the rule names, for the trace.
 */
export function activationTarget(
  r: StagedRule,
  compiled: CompiledBundle,
): { code: string | undefined; named: string[] } {
  const settings = r.rule.then?.settings;
  const named: string[] = [];
  if (typeof settings?.tool === 'string') named.push(settings.tool);
  if (Array.isArray(settings?.tools))
    for (const t of settings.tools) if (t && typeof t.name === 'string') named.push(t.name);
  for (const n of named) {
    const tool = compiled.toolByCode.get(n) ?? compiled.toolByName.get(n.trim().toLowerCase());
    if (tool?.enabled) return { code: tool.code, named };
  }
  return { code: undefined, named };
}

export const isConfirmationRule = (r: StagedRule) => r.rule.then?.settings?.requires_confirmation === true;

function ruleType(r: StagedRule, compiled: CompiledBundle): RuleType {
  if (isActivating(r)) return 'sequencing';
  if (isConfirmationRule(r)) return 'confirmation';
  if (
    readsProfile(r.rule.when, compiled) &&
    (isBlocking(r) || r.stage === 'global' || r.stage === 'constraint')
  )
    return 'authentication';
  if (isBlocking(r) || ((r.stage === 'global' || r.stage === 'constraint') && r.rule.then?.action !== 'TEXT'))
    return 'policy';
  return 'conditional';
}

export interface Evaluated {
  staged: StagedRule;
  type: RuleType;
  condition: ConditionResult;
  entry: RuleEvaluation;
}

/** Work steps one rule evaluation counts (its trace entry is written out too), beyond its condition's. */
const RULE_STEPS = 20;

/**
 * Evaluates the rule's condition and gives the result its condition alone decides; `run-tool.ts`
 * settles the final result of a rule that holds (a confirmation waiting, a requirement missing,
 * an activation that could not run) before it records the evaluation.
 */
export function evaluateRule(r: StagedRule, compiled: CompiledBundle, ctx: ConditionContext): Evaluated {
  spend(RULE_STEPS);
  const condition = evaluateCondition(r.rule.when, ctx);
  const type = ruleType(r, compiled);
  let result: RuleResult;
  let reason: string;
  if (condition.error !== undefined) {
    result = 'error';
    reason = `could not be evaluated: ${condition.reason}; ${
      stopsWhenBroken(r) ? 'error, so the tool is blocked' : 'error, so its words are left out'
    }`;
  } else if (!condition.holds) {
    result = condition.known ? 'allowed' : 'not_applicable';
    reason = `${condition.reason}; ${
      condition.known ? 'allowed: the condition does not hold' : 'not applicable: not decided yet'
    }`;
  } else if (isBlocking(r)) {
    result = 'blocked';
    reason = `${condition.reason}; blocked: the condition holds`;
  } else {
    result = 'allowed';
    reason = condition.reason;
  }
  return {
    staged: r,
    type,
    condition,
    entry: { rule_id: r.id, rule_type: type, predicate: renderCondition(r.rule.when), result, reason },
  };
}

/** Rules whose effect only adds words: when they cannot be evaluated, the turn goes on without them. */
const WORDS_ONLY = new Set(['TEXT', 'ASK_A_QUESTION']);

/**
 * Whether a rule that could not be evaluated stops its tool. Fail closed: a rule that blocks,
 * activates, asks for confirmation, calls an integration or adds requirements is never skipped
 * silently, because skipping it would switch a policy off.
 */
export const stopsWhenBroken = (r: StagedRule) =>
  isConfirmationRule(r) || !WORDS_ONLY.has(r.rule.then?.action);
