/**
 * Runs one tool for the turn, evaluating every rule in the fixed order: global rules that apply
 * to it, pre.constraint, pre.required_parameters, the required-parameters check,
 * pre.missing_info, the confirmation check, then (after the integrations) summary.success or
 * summary.fail. Sequencing rules run the other tool in place (a sub-tool, resumed from) or hand
 * the turn over to it. The outcome is decided in order: blocked, information missing,
 * confirmation needed, else the integrations run and the tool is done.
 */
import type { RuleEvaluation, ToolInvocation } from '../../src/contract/trace';
import type { Clock } from './clock';
import { applyComputations } from './computations';
import { conditionReads, type ConditionContext } from './conditions';
import { callIntegration } from './integrations';
import { confirmationText, doneText, fillTemplate, questionFor } from './reply';
import {
  activationTarget,
  evaluateRule,
  isActivating,
  isBlocking,
  isConfirmationRule,
  stopsWhenBroken,
  type Evaluated,
} from './rules';
import { CONVERSATION, integrationOrigin } from './provenance';
import type { CompiledBundle, CompiledTool, Origin, StagedRule, Values } from './types';
import { isFilled, showValue } from './values';

/** How deep sequencing may nest tools within one turn. */
export const MAX_TOOL_DEPTH = 4;

export interface TurnWork {
  compiled: CompiledBundle;
  clock: Clock;
  message: string;
  /** Values extracted from this message. */
  current: Values;
  /** The conversation's values, updated as the turn goes. */
  values: Values;
  /** Where each value came from (see provenance.ts). */
  origins: Record<string, Origin>;
  rules: RuleEvaluation[];
  triggered: boolean[];
  decisions: Record<string, unknown>[];
  invoked: ToolInvocation[];
  /** Tools activated during the turn, in order. */
  activated: string[];
  /** Tools that ran their integrations successfully during the turn. */
  completed: string[];
  /** Reply sentences that come before the outcome's own message. */
  notes: string[];
}

interface OutcomeBase {
  tool: string;
  message: string;
  /** Tools suspended behind this one, to resume in this order once it is done. */
  resume: string[];
}
export type Outcome =
  | (OutcomeBase & { kind: 'block'; rule: string; next?: string })
  | (OutcomeBase & { kind: 'ask'; asked: string[] })
  | (OutcomeBase & { kind: 'confirm' })
  | (OutcomeBase & { kind: 'done'; success: boolean });

export function toolParams(ct: CompiledTool): string[] {
  return [...new Set([...ct.required.flat(), ...ct.optional])];
}

/** The values a confirmation is given for; when one changes, the confirmation no longer holds. */
export function confirmationSnapshot(work: Pick<TurnWork, 'compiled' | 'values'>, ct: CompiledTool): string {
  const codes = [
    ...toolParams(ct),
    ...[...work.compiled.params.values()].filter((p) => p.usage === 'computed').map((p) => p.code),
  ];
  return JSON.stringify(codes.map((c) => [c, work.values[c] ?? null]));
}

function condCtx(work: TurnWork): ConditionContext {
  return {
    compiled: work.compiled,
    values: work.values,
    current: work.current,
    message: work.message,
    clock: work.clock,
  };
}

function record(work: TurnWork, ev: Evaluated): RuleEvaluation {
  work.rules.push(ev.entry);
  work.triggered.push(ev.condition.holds);
  return ev.entry;
}

/** An integration's answer: found values replace the state's; a value it lacks is cleared, unless the user gave it. */
function mergeOutputs(work: TurnWork, integration: string, outputs: Record<string, unknown>): void {
  for (const [code, v] of Object.entries(outputs)) {
    if (isFilled(v)) {
      work.values[code] = v;
      work.origins[code] = integrationOrigin(integration);
    } else if (work.origins[code] !== CONVERSATION) {
      delete work.values[code];
      delete work.origins[code];
    }
  }
}

function runIntegration(work: TurnWork, ct: CompiledTool, code: string): boolean {
  const call = callIntegration(work.compiled, code, work.values, toolParams(ct));
  work.invoked.push({
    tool: ct.code,
    parameters: call.parameters,
    result: call.result,
    integration: call.code,
    detail: call.detail,
    ...(call.notRun.length ? { not_run: call.notRun } : {}),
  });
  work.decisions.push({
    type: 'call_integration',
    tool: ct.code,
    integration: call.code,
    result: call.result,
  });
  mergeOutputs(work, call.code, call.outputs);
  return call.result === 'success';
}

function messageOf(work: TurnWork, r: StagedRule): string | null {
  const m = r.rule.then?.message;
  return typeof m === 'string' && m.trim() ? fillTemplate(m, work.values, work.compiled) : null;
}

function requirementText(req: string | string[]): string {
  return Array.isArray(req) ? `(${req.map((c) => `filled(${c})`).join(' or ')})` : `filled(${req})`;
}

export function runTool(
  work: TurnWork,
  code: string,
  opts: { confirmed: boolean; stack: string[] },
): Outcome {
  const { compiled } = work;
  const ct = compiled.toolByCode.get(code)!;
  const stack = [...opts.stack, code];
  if (!work.activated.includes(code)) work.activated.push(code);
  applyComputations(compiled, code, work.values, work.clock);

  let block: { rule: string; message: string; next?: string } | null = null;
  let confirmMessage: string | null = null;
  let needsConfirmation = false;
  const extraRequired: string[] = [];
  const questions: { reads: string[]; message: string }[] = [];

  /** Evaluates one pre rule and applies its effect; returns an outcome when the turn moves to another tool. */
  const pre = (r: StagedRule): Outcome | null => {
    const ev = evaluateRule(r, compiled, condCtx(work));
    const entry = record(work, ev);
    if (ev.condition.error !== undefined) {
      work.decisions.push({ type: 'rule_error', tool: code, rule: r.id, reason: ev.condition.error });
      if (stopsWhenBroken(r) && !block)
        block = {
          rule: r.id,
          message: `Sorry, I can't go on with this request: the check ${r.id} could not be evaluated.`,
        };
      return null;
    }
    if (!ev.condition.holds) return null;
    const then = r.rule.then;
    work.decisions.push({ type: 'rule_triggered', tool: code, rule: r.id, action: then?.action });
    if (isBlocking(r)) {
      if (!block) {
        const next =
          then.action === 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL' ? activationTarget(r, compiled).code : undefined;
        block = {
          rule: r.id,
          message:
            messageOf(work, r) ??
            (typeof r.rule.description === 'string'
              ? `Sorry, I can't do that: ${r.rule.description}.`
              : "Sorry, I can't do that."),
          ...(next ? { next } : {}),
        };
      }
      return null;
    }
    if (isConfirmationRule(r)) {
      if (opts.confirmed) {
        entry.reason = `${entry.reason}; the user confirmed`;
      } else {
        entry.result = 'requires_confirmation';
        needsConfirmation = true;
        confirmMessage ??= messageOf(work, r);
      }
      return null;
    }
    if (isActivating(r)) {
      const { code: target, named } = activationTarget(r, compiled);
      if (block) {
        entry.result = 'not_applicable';
        entry.reason = `${entry.reason}; not run because ${code} is already blocked by ${block.rule}`;
        return null;
      }
      if (target === undefined) {
        entry.result = 'not_applicable';
        entry.reason = `${entry.reason}; no enabled tool ${named.length ? named.map((n) => showValue(n)).join(' or ') : '(none named)'} to activate`;
        return null;
      }
      if (work.completed.includes(target)) {
        entry.reason = `${entry.reason}; ${target} already ran in this turn`;
        return null;
      }
      if (stack.includes(target) || stack.length >= MAX_TOOL_DEPTH) {
        entry.result = 'not_applicable';
        entry.reason = `${entry.reason}; ${target} is already running in this turn`;
        return null;
      }
      work.decisions.push({ type: 'activate_tool', tool: target, by: r.id });
      const nested = runTool(work, target, { confirmed: false, stack });
      if (then.action === 'ACTIVATE_ANOTHER_TOOL') {
        entry.reason = `${entry.reason}; handed over to ${target}`;
        return nested;
      }
      if (nested.kind === 'done' && nested.success) {
        entry.reason = `${entry.reason}; ${target} ran first`;
        const note = messageOf(work, r);
        if (nested.message) work.notes.push(nested.message);
        if (note) work.notes.push(note);
        applyComputations(compiled, code, work.values, work.clock);
        return null;
      }
      entry.result = 'blocked';
      entry.reason = `${entry.reason}; ${target} must finish before ${code} can go on`;
      return { ...nested, resume: [...nested.resume, code] };
    }
    const action = then?.action;
    if (action === 'ADD_REQUIRED_PARAM') extraRequired.push(...(then.params?.mandatory ?? []));
    else if (action === 'ASK_A_QUESTION') {
      const m = messageOf(work, r);
      if (m) questions.push({ reads: conditionReads(r.rule.when), message: m });
    } else if (action === 'API' && typeof then.settings?.integration === 'string') {
      runIntegration(work, ct, then.settings.integration);
      applyComputations(compiled, code, work.values, work.clock);
    } else {
      const m = messageOf(work, r);
      if (m) work.notes.push(m);
    }
    return null;
  };

  for (const r of [...ct.globals, ...ct.pre, ...ct.requiredRules]) {
    const moved = pre(r);
    if (moved) return moved;
  }

  const required: (string | string[])[] = [...ct.required];
  for (const extra of extraRequired) if (!required.flat().includes(extra)) required.push(extra);
  const filled = (c: string) => isFilled(work.values[c]);
  const missing = required.filter((req) => (Array.isArray(req) ? !req.some(filled) : !filled(req)));
  if (required.length > 0) {
    const have = required
      .flat()
      .filter(filled)
      .map((c) => `${c} = ${showValue(work.values[c])}`);
    const reason = missing.length
      ? `missing ${missing.map((m) => (Array.isArray(m) ? m.join(' or ') : m)).join(', ')}${have.length ? `; have ${have.join(', ')}` : ''}`
      : `all filled: ${have.join(', ')}`;
    work.rules.push({
      rule_id: `${code}.params.required`,
      rule_type: 'conditional',
      predicate: required.map(requirementText).join(' and '),
      result: missing.length ? 'blocked' : 'allowed',
      reason,
    });
    work.triggered.push(missing.length > 0);
    work.decisions.push({ type: 'params_check', tool: code, missing: missing.flat() });
  }
  for (const r of ct.missingInfo) {
    const moved = pre(r);
    if (moved) return moved;
  }

  if (block) {
    const b = block as { rule: string; message: string; next?: string };
    work.decisions.push({ type: 'block', tool: code, rule: b.rule });
    return {
      kind: 'block',
      tool: code,
      message: b.message,
      rule: b.rule,
      resume: [],
      ...(b.next ? { next: b.next } : {}),
    };
  }
  if (missing.length > 0) {
    const first = missing[0]!;
    const codes = Array.isArray(first) ? first : [first];
    const custom = questions.find((q) => q.reads.some((c) => codes.includes(c)));
    work.decisions.push({ type: 'ask_question', tool: code, params: codes });
    return {
      kind: 'ask',
      tool: code,
      asked: codes,
      message: custom?.message ?? questionFor(compiled, first),
      resume: [],
    };
  }

  if (ct.tool.requires_confirmation === true) {
    work.rules.push({
      rule_id: `${code}.requires_confirmation`,
      rule_type: 'confirmation',
      predicate: `confirmed(${code})`,
      result: opts.confirmed ? 'allowed' : 'requires_confirmation',
      reason: opts.confirmed
        ? `${code} requires confirmation, and the user confirmed`
        : `${code} requires an explicit confirmation, not given yet`,
    });
    work.triggered.push(true);
    if (!opts.confirmed) needsConfirmation = true;
  }
  if (needsConfirmation) {
    work.decisions.push({ type: 'ask_confirmation', tool: code });
    return {
      kind: 'confirm',
      tool: code,
      message: confirmMessage ?? confirmationText(compiled, ct.tool, toolParams(ct), work.values),
      resume: [],
    };
  }

  let success = true;
  const refs = (ct.tool.integrations ?? []).filter((i) => i && typeof i.code === 'string');
  for (const ref of refs) {
    if (!runIntegration(work, ct, ref.code)) {
      success = false;
      break;
    }
  }
  if (refs.length === 0) {
    const parameters: Values = {};
    for (const c of toolParams(ct)) if (filled(c)) parameters[c] = work.values[c];
    work.invoked.push({ tool: code, parameters, result: 'success' });
  }
  applyComputations(compiled, code, work.values, work.clock);
  if (success) work.completed.push(code);

  let message: string | null = null;
  for (const r of success ? ct.success : ct.fail) {
    const ev = evaluateRule(r, compiled, condCtx(work));
    record(work, ev);
    if (ev.condition.error !== undefined)
      work.decisions.push({ type: 'rule_error', tool: code, rule: r.id, reason: ev.condition.error });
    if (!ev.condition.holds) continue;
    const target = isActivating(r) ? activationTarget(r, compiled).code : undefined;
    if (target !== undefined && !stack.includes(target) && stack.length < MAX_TOOL_DEPTH) {
      const note = message ?? messageOf(work, r);
      if (note) work.notes.push(note);
      work.decisions.push({ type: 'activate_tool', tool: target, by: r.id });
      return runTool(work, target, { confirmed: false, stack });
    }
    message ??= messageOf(work, r);
  }
  for (const r of ct.summaryMissingInfo) record(work, evaluateRule(r, compiled, condCtx(work)));
  work.decisions.push({ type: 'tool_text_response', tool: code, success });
  return { kind: 'done', tool: code, success, message: message ?? doneText(ct.tool, success), resume: [] };
}
