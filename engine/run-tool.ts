/**
 * Runs one tool for the turn, evaluating every rule in the fixed order: global rules that apply
 * to it, pre.constraint, pre.required_parameters, the required-parameters check,
 * pre.missing_info, the confirmation check, then (after the integrations) summary.success,
 * summary.fail or summary.missing_info. Sequencing rules run the other tool in place (a sub-tool,
 * resumed from, run once per request) or hand the turn over to it. The outcome is decided in order: blocked, information missing,
 * confirmation needed, else the integrations run and the tool is done.
 */
import type { RuleEvaluation, ToolInvocation } from '../src/contract/trace';
import type { Clock } from './clock';
import { applyComputations } from './computations';
import { conditionReads, type ConditionContext } from './conditions';
import { callIntegration, type CallResult } from './integrations';
import { confirmationText, doneText, fillTemplate, notFoundText, questionFor } from './reply';
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
import { isFilled, newValues, showValue } from './values';
import { spend } from '../src/lib/bundle/work-budget';

/** How deep sequencing may nest tools within one turn. */
const MAX_TOOL_DEPTH = 4;

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
  /**
   * Tools that finished for this request in earlier turns (the pending tool's `done`): a sub-tool
   * among them is not run again, so its integrations are called once per request.
   */
  remembered: string[];
  /**
   * The confirmations the user's yes confirms (those the previous reply asked for), or null when
   * the state does not say (written before it was kept): then a yes confirms all of them.
   */
  confirming: string[] | null;
  /** Reply sentences that come before the outcome's own message. */
  notes: string[];
  /** Computed parameters whose formula failed on known values, with why (see computations.ts). */
  failed: Record<string, string>;
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
  | (OutcomeBase & { kind: 'confirm'; confirming: string[] })
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
    failed: work.failed,
  };
}

/** Refreshes the computed parameters for a tool, noting the formulas that failed on known values. */
function compute(work: TurnWork, tool: string): void {
  applyComputations(work.compiled, tool, work.values, work.clock, work.failed);
}

/**
 * Records a rule's evaluation, final (frozen: nothing edits it afterwards): its entry and whether
 * its condition held. `at` is the place it was evaluated at, when it is recorded only after the
 * tool it activated ran (that tool's evaluations come after it in the trace).
 */
export function recordRule(
  work: TurnWork,
  entry: RuleEvaluation,
  triggered: boolean,
  at = work.rules.length,
): void {
  Object.freeze(entry);
  if (at === work.rules.length) {
    work.rules.push(entry);
    work.triggered.push(triggered);
  } else {
    work.rules.splice(at, 0, entry);
    work.triggered.splice(at, 0, triggered);
  }
}

/** A rule's evaluation with its result or reason settled by its effect. */
function settled(
  ev: Evaluated,
  change: Partial<Pick<RuleEvaluation, 'result' | 'reason'>> = {},
): RuleEvaluation {
  return { ...ev.entry, ...change };
}

/** A rule that holds, settled: its result and, in words, what it did (after the values it read). */
function outcome(ev: Evaluated, result: RuleEvaluation['result'], words: string): RuleEvaluation {
  const said = result === 'not_applicable' ? 'not applicable' : result.replace('_', ' ');
  return settled(ev, { result, reason: `${ev.entry.reason}; ${said}: ${words}` });
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

/**
 * Calls one integration and merges its answer. Called by the tool's action (its `integrations`),
 * the call is a `tools_invoked` entry: the tool ran. Called by an `API` rule (`rule`), it is a
 * lookup on the tool's way, not the tool: only its `call_integration` decision records it, with
 * the rule, the request and the outcome.
 */
function runIntegration(
  work: TurnWork,
  ct: CompiledTool,
  code: string,
  rule?: string,
): { result: CallResult; parameters: Values } {
  const call = callIntegration(work.compiled, code, work.values, toolParams(ct));
  const notRun = call.notRun.length ? { not_run: call.notRun } : {};
  if (rule === undefined)
    work.invoked.push({
      tool: ct.code,
      parameters: call.parameters,
      result: call.result,
      integration: call.code,
      detail: call.detail,
      ...notRun,
    });
  work.decisions.push({
    type: 'call_integration',
    tool: ct.code,
    integration: call.code,
    result: call.result,
    ...(rule === undefined ? {} : { by: rule, parameters: call.parameters, detail: call.detail, ...notRun }),
  });
  mergeOutputs(work, call.code, call.outputs);
  return { result: call.result, parameters: call.parameters };
}

function messageOf(work: TurnWork, r: StagedRule): string | null {
  const m = r.rule.then?.message;
  return typeof m === 'string' && m.trim() ? fillTemplate(m, work.values, work.compiled) : null;
}

function requirementText(req: string | string[]): string {
  return Array.isArray(req) ? `(${req.map((c) => `filled(${c})`).join(' or ')})` : `filled(${req})`;
}

interface Block {
  rule: string;
  message: string;
  next?: string;
}

/** One tool's run: where it sits in the turn, and what its rules decided so far. */
interface ToolRun {
  code: string;
  ct: CompiledTool;
  /** The tools running, outermost first, this one last. */
  stack: string[];
  confirmed: boolean;
  /** The first rule that blocked the tool. */
  block: Block | null;
  /** The first rule that made the tool wait (for a confirmation, or a parameter it requires). */
  waitingOn: string | null;
  needsConfirmation: boolean;
  /**
   * The confirmations asked, in order: a confirmation rule's id with its message (null: it has
   * none, so the values are restated), and `<TOOL>.requires_confirmation` (the values restated).
   */
  confirming: { id: string; message: string | null }[];
  /** The confirmations the user's yes gave in this turn (kept while the values stay the same). */
  confirmedIds: string[];
  /** Parameters `ADD_REQUIRED_PARAM` rules made required. */
  extraRequired: string[];
  /** `ASK_A_QUESTION` rules' questions, by the parameters their conditions read. */
  questions: { reads: string[]; message: string }[];
}

export function runTool(
  work: TurnWork,
  code: string,
  opts: { confirmed: boolean; stack: string[] },
): Outcome {
  const ct = work.compiled.toolByCode.get(code)!;
  spend(1);
  if (!work.activated.includes(code)) work.activated.push(code);
  compute(work, code);
  const run: ToolRun = {
    code,
    ct,
    stack: [...opts.stack, code],
    confirmed: opts.confirmed,
    block: null,
    waitingOn: null,
    needsConfirmation: false,
    confirming: [],
    confirmedIds: [],
    extraRequired: [],
    questions: [],
  };

  const moved = preRules(work, run, [...ct.globals, ...ct.pre, ...ct.requiredRules]);
  if (moved) return moved;
  const missing = checkRequired(work, run);
  if (missing.length > 0) run.waitingOn ??= `${code}.params.required`;
  const movedLater = preRules(work, run, ct.missingInfo);
  if (movedLater) return movedLater;

  if (run.block) return blocked(work, run, run.block);
  if (missing.length > 0) return ask(work, run, missing[0]!);
  // A parameter a missing_info rule made required (after the required-parameters check).
  const late = run.extraRequired.find((c) => !isFilled(work.values[c]));
  if (late !== undefined) return ask(work, run, late);
  checkConfirmation(work, run);
  if (run.needsConfirmation) {
    work.decisions.push({ type: 'ask_confirmation', tool: code });
    return {
      kind: 'confirm',
      tool: code,
      message: confirmationRequest(work, run),
      // A yes to this reply gives what it asks, and keeps what was confirmed already.
      confirming: [...run.confirming.map((c) => c.id), ...run.confirmedIds],
      resume: [],
    };
  }
  return summarize(work, run, runIntegrations(work, run));
}

/**
 * The reply asking for every confirmation pending, so one yes confirms nothing unseen: each
 * confirmation rule's message in order, then the tool's values restated when the tool asks
 * itself (`requires_confirmation`) or a rule has no message of its own.
 */
function confirmationRequest(work: TurnWork, run: ToolRun): string {
  const said = run.confirming.map((c) => c.message).filter((m): m is string => m !== null);
  const restate = said.length < run.confirming.length;
  return [
    ...said,
    ...(restate ? [confirmationText(work.compiled, run.ct.tool, toolParams(run.ct), work.values)] : []),
  ].join(' ');
}

/** Whether the user's yes confirms `id` (a confirmation the previous reply asked for). */
function confirmedNow(work: TurnWork, run: ToolRun, id: string): boolean {
  const yes = run.confirmed && (work.confirming === null || work.confirming.includes(id));
  if (yes) run.confirmedIds.push(id);
  return yes;
}

/** Evaluates rules in order until one moves the turn to another tool (its outcome), else null. */
function preRules(work: TurnWork, run: ToolRun, rules: StagedRule[]): Outcome | null {
  for (const r of rules) {
    const moved = preRule(work, run, r);
    if (moved) return moved;
  }
  return null;
}

/** Evaluates one pre rule, applies its effect and records its final result. */
function preRule(work: TurnWork, run: ToolRun, r: StagedRule): Outcome | null {
  const ev = evaluateRule(r, work.compiled, condCtx(work));
  const { condition } = ev;
  if (condition.error !== undefined) {
    recordRule(work, ev.entry, condition.holds);
    work.decisions.push({ type: 'rule_error', tool: run.code, rule: r.id, reason: condition.error });
    if (stopsWhenBroken(r)) run.block ??= brokenBlock(r);
    return null;
  }
  if (!condition.holds) {
    recordRule(work, ev.entry, false);
    return null;
  }
  const then = r.rule.then;
  work.decisions.push({ type: 'rule_triggered', tool: run.code, rule: r.id, action: then?.action });
  if (isBlocking(r)) {
    recordRule(work, ev.entry, true);
    run.block ??= blockOf(work, r);
    return null;
  }
  if (isConfirmationRule(r)) {
    recordRule(work, confirmationEntry(work, run, ev), true);
    return null;
  }
  if (isActivating(r)) return activate(work, run, ev);
  recordRule(work, applyEffect(work, run, ev), true);
  return null;
}

/** The block a gating rule in error puts on its tool: fail closed. */
function brokenBlock(r: StagedRule): Block {
  return {
    rule: r.id,
    message: `Sorry, I can't go on with this request: the check ${r.id} could not be evaluated.`,
  };
}

function blockOf(work: TurnWork, r: StagedRule): Block {
  const next =
    r.rule.then?.action === 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL'
      ? activationTarget(r, work.compiled).code
      : undefined;
  return {
    rule: r.id,
    message:
      messageOf(work, r) ??
      (typeof r.rule.description === 'string'
        ? `Sorry, I can't do that: ${r.rule.description}.`
        : "Sorry, I can't do that."),
    ...(next ? { next } : {}),
  };
}

/** A confirmation rule that holds: confirmed already, or the tool waits for the user's yes. */
function confirmationEntry(work: TurnWork, run: ToolRun, ev: Evaluated): RuleEvaluation {
  const id = ev.staged.id;
  if (confirmedNow(work, run, id))
    return outcome(ev, 'allowed', 'the condition holds and the user confirmed');
  run.needsConfirmation = true;
  run.waitingOn ??= id;
  run.confirming.push({ id, message: messageOf(work, ev.staged) });
  return outcome(ev, 'requires_confirmation', 'the condition holds, and the user has not confirmed yet');
}

/**
 * A sequencing rule that holds: runs the tool it names in place, unless it cannot run. Recorded
 * once the outcome is known, at its place before the evaluations of the tool it ran.
 */
function activate(work: TurnWork, run: ToolRun, ev: Evaluated): Outcome | null {
  const r = ev.staged;
  const at = work.rules.length;
  const done = (result: RuleEvaluation['result'], words: string) =>
    recordRule(work, outcome(ev, result, words), true, at);
  const { code: target, named } = activationTarget(r, work.compiled);
  // Once a rule stopped the tool, no later rule moves the turn elsewhere: the decision stays the
  // one the stopping rule's result gives.
  if (run.block) {
    done('not_applicable', `not run because ${run.code} is already blocked by ${run.block.rule}`);
    return null;
  }
  if (run.waitingOn !== null) {
    done('not_applicable', `not run because ${run.code} already waits on ${run.waitingOn}`);
    return null;
  }
  if (target === undefined) {
    done(
      'not_applicable',
      `no enabled tool ${named.length ? named.map((n) => showValue(n)).join(' or ') : '(none named)'} to activate`,
    );
    return null;
  }
  if (work.completed.includes(target)) {
    done('allowed', `${target} already ran in this turn`);
    return null;
  }
  // A sub-tool that finished for this request in an earlier turn is not run again: its
  // integrations are not called a second time, nor its message repeated.
  if (work.remembered.includes(target)) {
    done('allowed', `${target} already ran for this request`);
    return null;
  }
  if (run.stack.includes(target) || run.stack.length >= MAX_TOOL_DEPTH) {
    done('not_applicable', `${target} is already running in this turn`);
    return null;
  }
  work.decisions.push({ type: 'activate_tool', tool: target, by: r.id });
  const nested = runTool(work, target, { confirmed: false, stack: run.stack });
  if (r.rule.then.action === 'ACTIVATE_ANOTHER_TOOL') {
    done('allowed', `handed over to ${target}`);
    return nested;
  }
  if (nested.kind === 'done' && nested.success) {
    done('allowed', `${target} ran first`);
    const note = messageOf(work, r);
    if (nested.message) work.notes.push(nested.message);
    if (note) work.notes.push(note);
    compute(work, run.code);
    return null;
  }
  done('blocked', `${target} must finish before ${run.code} can go on`);
  if (nested.kind === 'done')
    return { kind: 'block', tool: run.code, rule: r.id, message: nested.message, resume: [] };
  return { ...nested, resume: [...nested.resume, run.code] };
}

/** The effect of a rule that holds and neither blocks, confirms nor activates; its settled evaluation. */
function applyEffect(work: TurnWork, run: ToolRun, ev: Evaluated): RuleEvaluation {
  const r = ev.staged;
  const then = r.rule.then;
  const action = then?.action;
  if (action === 'ADD_REQUIRED_PARAM') {
    const added: string[] = (then.params?.mandatory ?? []).filter((c: unknown) => typeof c === 'string');
    run.extraRequired.push(...added);
    const missing = added.filter((c) => !isFilled(work.values[c]));
    if (missing.length > 0) run.waitingOn ??= r.id;
    if (missing.length > 0) return outcome(ev, 'blocked', `${missing.join(', ')} required and not given yet`);
    const given = added.map((c) => `${c} = ${showValue(work.values[c])}`).join(', ');
    return outcome(ev, 'allowed', given ? `required, and given: ${given}` : 'it adds no parameter');
  }
  if (action === 'ASK_A_QUESTION') {
    const m = messageOf(work, r);
    if (m) run.questions.push({ reads: conditionReads(r.rule.when), message: m });
    return outcome(
      ev,
      'allowed',
      m ? 'its question is the one asked for what it reads' : 'it has no question',
    );
  }
  if (action === 'API' && typeof then.settings?.integration === 'string') {
    const { result } = runIntegration(work, run.ct, then.settings.integration, r.id);
    compute(work, run.code);
    const said = result === 'not_found' ? 'not found: its mapped parameters are cleared' : result;
    return outcome(ev, 'allowed', `${then.settings.integration} called (${said})`);
  }
  const m = messageOf(work, r);
  if (m) work.notes.push(m);
  return outcome(ev, 'allowed', m ? 'its message is added to the reply' : 'it has no message');
}

/** The required-parameters check (`<TOOL>.params.required`): the requirements still missing. */
function checkRequired(work: TurnWork, run: ToolRun): (string | string[])[] {
  const { code } = run;
  const required: (string | string[])[] = [...run.ct.required];
  for (const extra of run.extraRequired) if (!required.flat().includes(extra)) required.push(extra);
  const filled = (c: string) => isFilled(work.values[c]);
  const missing = required.filter((req) => (Array.isArray(req) ? !req.some(filled) : !filled(req)));
  if (required.length === 0) return missing;
  const have = required
    .flat()
    .filter(filled)
    .map((c) => `${c} = ${showValue(work.values[c])}`);
  const reason = missing.length
    ? `missing ${missing.map((m) => (Array.isArray(m) ? m.join(' or ') : m)).join(', ')}${have.length ? `; have ${have.join(', ')}` : ''}; blocked: the tool waits for it`
    : `all filled: ${have.join(', ')}; allowed: every required parameter is given`;
  recordRule(
    work,
    {
      rule_id: `${code}.params.required`,
      rule_type: 'conditional',
      predicate: required.map(requirementText).join(' and '),
      result: missing.length ? 'blocked' : 'allowed',
      reason,
    },
    missing.length > 0,
  );
  work.decisions.push({ type: 'params_check', tool: code, missing: missing.flat() });
  return missing;
}

function blocked(work: TurnWork, run: ToolRun, b: Block): Outcome {
  work.decisions.push({ type: 'block', tool: run.code, rule: b.rule });
  return {
    kind: 'block',
    tool: run.code,
    message: b.message,
    rule: b.rule,
    resume: [],
    ...(b.next ? { next: b.next } : {}),
  };
}

/** Asks for the first missing requirement, with an `ASK_A_QUESTION` rule's question when one reads it. */
function ask(work: TurnWork, run: ToolRun, first: string | string[]): Outcome {
  const codes = Array.isArray(first) ? first : [first];
  const custom = run.questions.find((q) => q.reads.some((c) => codes.includes(c)));
  work.decisions.push({ type: 'ask_question', tool: run.code, params: codes });
  return {
    kind: 'ask',
    tool: run.code,
    asked: codes,
    message: custom?.message ?? questionFor(work.compiled, first),
    resume: [],
  };
}

/** The tool's own confirmation check (`<TOOL>.requires_confirmation`), when it asks for one. */
function checkConfirmation(work: TurnWork, run: ToolRun): void {
  const { code } = run;
  if (run.ct.tool.requires_confirmation !== true) return;
  const id = `${code}.requires_confirmation`;
  const confirmed = confirmedNow(work, run, id);
  recordRule(
    work,
    {
      rule_id: id,
      rule_type: 'confirmation',
      predicate: `confirmed(${code})`,
      result: confirmed ? 'allowed' : 'requires_confirmation',
      reason: confirmed
        ? `${code} requires confirmation; allowed: the user confirmed`
        : `${code} requires an explicit confirmation; requires confirmation: not given yet`,
    },
    true,
  );
  if (confirmed) return;
  run.needsConfirmation = true;
  run.confirming.push({ id, message: null });
}

/** How the tool's action ended: every integration answered, or the first that did not (with its request). */
interface ActionResult {
  result: CallResult;
  parameters: Values;
}

/** Runs the tool's integrations in order until one does not succeed: the tool's action. */
function runIntegrations(work: TurnWork, run: ToolRun): ActionResult {
  const { code, ct } = run;
  let ended: ActionResult = { result: 'success', parameters: newValues() };
  const refs = (ct.tool.integrations ?? []).filter((i) => i && typeof i.code === 'string');
  for (const ref of refs) {
    ended = runIntegration(work, ct, ref.code);
    if (ended.result !== 'success') break;
  }
  if (refs.length === 0) {
    const parameters = newValues();
    for (const c of toolParams(ct)) if (isFilled(work.values[c])) parameters[c] = work.values[c];
    work.invoked.push({ tool: code, parameters, result: 'success' });
  }
  compute(work, code);
  if (ended.result === 'success') work.completed.push(code);
  return ended;
}

/**
 * The summary rules of how the action ended, once the integrations ran: `summary.success`,
 * `summary.fail`, or `summary.missing_info` when a lookup found nothing (`summary.fail` when the
 * tool has no `summary.missing_info` rule). A BLOCK rule that holds (or a gating rule in error)
 * blocks the turn with its message; an activation hands the turn over to the next tool; otherwise
 * the first message of a rule that holds closes the tool (a later message that holds is not said:
 * its reason says so).
 */
function summarize(work: TurnWork, run: ToolRun, action: ActionResult): Outcome {
  const { code, ct, stack } = run;
  const { compiled } = work;
  const success = action.result === 'success';
  const notFound = action.result === 'not_found';
  let message: string | null = null;
  let block: Block | null = null;
  // Nothing found: `summary.missing_info` speaks; a tool without such rules says it in `summary.fail`.
  const rules = success
    ? ct.success
    : notFound && ct.summaryMissingInfo.length > 0
      ? ct.summaryMissingInfo
      : ct.fail;
  for (const r of rules) {
    const ev = evaluateRule(r, compiled, condCtx(work));
    const { condition } = ev;
    if (condition.error !== undefined) {
      recordRule(work, ev.entry, false);
      work.decisions.push({ type: 'rule_error', tool: code, rule: r.id, reason: condition.error });
      if (stopsWhenBroken(r)) block ??= brokenBlock(r);
      continue;
    }
    if (!condition.holds) {
      recordRule(work, ev.entry, false);
      continue;
    }
    work.decisions.push({ type: 'rule_triggered', tool: code, rule: r.id, action: r.rule.then?.action });
    if (isBlocking(r)) {
      recordRule(work, ev.entry, true);
      block ??= blockOf(work, r);
      continue;
    }
    if (isActivating(r)) {
      const { code: target, named } = activationTarget(r, compiled);
      if (block) {
        recordRule(
          work,
          outcome(ev, 'not_applicable', `not run because ${code} is blocked by ${block.rule}`),
          true,
        );
        continue;
      }
      if (target === undefined || stack.includes(target) || stack.length >= MAX_TOOL_DEPTH) {
        const why =
          target === undefined
            ? `no enabled tool ${named.length ? named.map((n) => showValue(n)).join(' or ') : '(none named)'} to activate`
            : `${target} is already running in this turn`;
        recordRule(work, outcome(ev, 'not_applicable', why), true);
        continue;
      }
      recordRule(work, outcome(ev, 'allowed', `handed over to ${target}`), true);
      const note = message ?? messageOf(work, r);
      if (note) work.notes.push(note);
      work.decisions.push({ type: 'activate_tool', tool: target, by: r.id });
      return runTool(work, target, { confirmed: false, stack });
    }
    const own = messageOf(work, r);
    recordRule(
      work,
      outcome(
        ev,
        'allowed',
        own === null
          ? 'it has no message'
          : message === null
            ? 'its message closes the tool'
            : "its message is not said: an earlier rule's message closes the tool",
      ),
      true,
    );
    message ??= own;
  }
  if (block) return blocked(work, run, block);
  work.decisions.push({
    type: 'tool_text_response',
    tool: code,
    success,
    ...(notFound ? { not_found: true } : {}),
  });
  const fallback = notFound ? notFoundText(compiled, ct.tool, action.parameters) : doneText(ct.tool, success);
  return { kind: 'done', tool: code, success, message: message ?? fallback, resume: [] };
}
