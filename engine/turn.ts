/** One turn: understand → choose the tool → evaluate rules → decide → reply → trace. */
import type { RuleEvaluation } from '../src/contract/trace';
import { chooseTool, type ToolChoice } from './choose-tool';
import { parseClock } from './clock';
import { compileBundle } from './compile';
import type { TurnInput, TurnOutput } from './contract';
import { loadProfile } from './integrations';
import { carryState, CONVERSATION, finalOrigins, markOrigins } from './provenance';
import { deniedText, generalText } from './reply';
import {
  confirmationSnapshot,
  recordRule,
  runTool,
  toolParams,
  type Outcome,
  type TurnWork,
} from './run-tool';
import { readState, writeState } from './state';
import { suggestionsFor } from './suggestions';
import { buildTrace } from './trace';
import type { CompiledTool, Pending, Values } from './types';
import { understandRemembered } from './understand/remembered';
import { detectConfirmation } from './understand/words';
import { newValues } from './values';

const DECISION: Record<Outcome['kind'], string> = {
  block: 'block_with_explanation',
  ask: 'request_information',
  confirm: 'request_confirmation',
  done: 'proceed',
};
/** Suspended tools resumed within one turn, at most. */
const MAX_RESUMES = 8;

/**
 * What the state remembers for the next turn: the tool that waits and on what, and, while the
 * request goes on, the tools that finished for it (`done`).
 */
function nextPending(outcome: Outcome, work: TurnWork): Pending | null {
  const pending = waitingOn(outcome, work);
  const done = [...new Set([...work.remembered, ...work.completed])];
  return pending && done.length > 0 ? { ...pending, done } : pending;
}

function waitingOn(outcome: Outcome, work: TurnWork): Pending | null {
  switch (outcome.kind) {
    case 'block':
      return outcome.next
        ? { tool: outcome.next, awaiting: 'information', asked: [], resume: [] }
        : { tool: outcome.tool, awaiting: 'blocked', asked: [], resume: outcome.resume };
    case 'ask':
      return { tool: outcome.tool, awaiting: 'information', asked: outcome.asked, resume: outcome.resume };
    case 'confirm': {
      const ct = work.compiled.toolByCode.get(outcome.tool)!;
      return {
        tool: outcome.tool,
        awaiting: 'confirmation',
        asked: [],
        resume: outcome.resume,
        snapshot: confirmationSnapshot(work, ct),
        confirming: outcome.confirming,
      };
    }
    case 'done':
      return outcome.success
        ? null
        : { tool: outcome.tool, awaiting: 'retry', asked: [], resume: outcome.resume };
  }
}

/** What a turn starts from, before anything is read from the message. */
export interface TurnStart {
  input: TurnInput;
  compiled: ReturnType<typeof compileBundle>;
  clock: ReturnType<typeof parseClock>;
  change: ReturnType<typeof carryState>['change'];
  message: string;
  values: Values;
  origins: Record<string, string>;
  profileLoaded: string[];
  pending: Pending | null;
  pendingTool: CompiledTool | undefined;
}

/** The state a turn starts from: the bundle compiled, the state carried over, the profile loaded. */
export function startTurn(input: TurnInput): TurnStart {
  const compiled = compileBundle(input.bundle);
  const clock = parseClock(input.clock);
  const carried = carryState(readState(input.state), compiled.fingerprint);
  const state = carried.state;
  const message = typeof input.text === 'string' ? input.text : '';
  const values = state.values;
  const origins = state.origins;
  const profileLoaded = loadProfile(compiled, values, state.profile_loaded, origins);
  const pendingTool: CompiledTool | undefined = state.pending
    ? compiled.toolByCode.get(state.pending.tool)
    : undefined;
  const pending = pendingTool?.enabled ? state.pending : null;
  return {
    input,
    compiled,
    clock,
    change: carried.change,
    message,
    values,
    origins,
    profileLoaded,
    pending,
    pendingTool,
  };
}

export function runTurn(input: TurnInput): TurnOutput {
  const start = startTurn(input);
  const { compiled, clock, message, values, origins, pending, pendingTool } = start;
  const confirmation = pending?.awaiting === 'confirmation' ? detectConfirmation(message) : null;

  // After a refusal (the pending tool was blocked), a value given again replaces the refused one,
  // "today" included: nothing counts as given for the words that otherwise never replace a value.
  const given =
    pending?.awaiting === 'blocked'
      ? []
      : Object.keys(values).filter((code) => origins[code] === CONVERSATION);
  const read = (expected: string[], preferred: string[]) =>
    understandRemembered(compiled, message, clock, { expected, preferred, given }).values;
  // The message read with the pending tool preferred: asked when the choice depends on it, or
  // once the choice keeps that tool (or none); a new tool reads it with its own preferred.
  let first: Values | undefined;
  const firstReading = () =>
    (first ??= read(pending?.asked ?? [], pendingTool && pending ? toolParams(pendingTool) : []));
  const choice = chooseTool(compiled, message, pending, firstReading, confirmation, () => ({
    compiled,
    values: Object.assign(newValues(values), firstReading()),
    current: firstReading(),
    message,
    clock,
  }));
  const extracted =
    choice.kind === 'new' && choice.tool.code !== pending?.tool
      ? read([], toolParams(choice.tool))
      : firstReading();
  return decideTurn(start, choice, extracted);
}

/**
 * Decides a turn whose understanding is settled: the tool chosen and the values read from the
 * message (`extracted`). Everything after the understanding step: rules, decision, reply, trace.
 */
export function decideTurn(start: TurnStart, choice: ToolChoice, extracted: Values): TurnOutput {
  const { input, compiled, clock, message, values, origins, pending, profileLoaded } = start;
  Object.assign(values, extracted);
  markOrigins(origins, values, Object.keys(extracted), CONVERSATION);

  const work: TurnWork = {
    compiled,
    clock,
    message,
    current: extracted,
    values,
    origins,
    rules: [] as RuleEvaluation[],
    triggered: [],
    decisions: start.change ? [{ type: 'bundle_changed', ...start.change }] : [],
    invoked: [],
    activated: [],
    completed: [],
    // The request goes on when the pending tool is continued (not declined): what finished for it
    // is remembered, and a yes confirms what the previous reply asked.
    remembered: choice.kind === 'continue' && choice.intent !== 'deny' ? (pending?.done ?? []) : [],
    confirming: pending?.awaiting === 'confirmation' ? (pending.confirming ?? null) : [],
    notes: [],
    failed: Object.create(null) as Record<string, string>,
  };

  let decision: string;
  let reply: string;
  let next: Pending | null = null;
  let tool: string | null = null;
  let asked: string[] = [];

  if (choice.kind === 'fallback') {
    work.decisions.push({ type: 'tool_text_response', intent: choice.intent });
    decision = 'proceed';
    reply = generalText(compiled);
  } else if (choice.kind === 'continue' && choice.intent === 'deny') {
    tool = choice.tool.code;
    work.decisions.push({ type: 'activate_tool', tool, via: 'continue' });
    recordRule(
      work,
      {
        rule_id: `${tool}.requires_confirmation`,
        rule_type: 'confirmation',
        predicate: `confirmed(${tool})`,
        result: 'blocked',
        reason: `the user declined: ${JSON.stringify(message.slice(0, 200))}; blocked: the tool is cancelled`,
      },
      true,
    );
    work.decisions.push({ type: 'block', tool, reason: 'declined' });
    decision = 'block_with_explanation';
    reply = deniedText(choice.tool.tool);
  } else {
    tool = choice.tool.code;
    work.decisions.push({
      type: 'activate_tool',
      tool,
      via: choice.kind === 'continue' ? 'continue' : choice.via,
    });
    const confirmed =
      choice.kind === 'continue' &&
      choice.intent === 'confirm' &&
      pending?.awaiting === 'confirmation' &&
      pending.snapshot === confirmationSnapshot(work, choice.tool);
    let outcome = runTool(work, tool, { confirmed, stack: [] });
    outcome = {
      ...outcome,
      resume: [...outcome.resume, ...(choice.kind === 'continue' && pending ? pending.resume : [])],
    };
    for (
      let i = 0;
      i < MAX_RESUMES && outcome.kind === 'done' && outcome.success && outcome.resume.length > 0;
      i++
    ) {
      const [resumed, ...rest] = outcome.resume as [string, ...string[]];
      if (!compiled.toolByCode.get(resumed)?.enabled) {
        outcome = { ...outcome, resume: rest };
        continue;
      }
      if (outcome.message) work.notes.push(outcome.message);
      work.decisions.push({ type: 'activate_tool', tool: resumed, via: 'resume' });
      const o = runTool(work, resumed, { confirmed: false, stack: [] });
      outcome = { ...o, resume: [...o.resume, ...rest] };
    }
    decision = DECISION[outcome.kind];
    reply = [...work.notes, outcome.message].filter((s) => s && s.trim()).join(' ');
    next = nextPending(outcome, work);
    tool = outcome.tool;
    if (outcome.kind === 'ask') asked = outcome.asked;
  }

  const suggestions = suggestionsFor(compiled, decision, tool, asked);
  const considered = [...new Set([...(choice.considered ?? []), ...work.activated])];
  const trace = buildTrace({
    interactionId: input.interactionId,
    message,
    intent: choice.intent,
    decision,
    reply,
    suggestions,
    extracted: extracted,
    considered,
    work,
    sources: finalOrigins(origins, values),
    change: start.change,
  });
  return {
    reply,
    suggestions,
    trace,
    state: writeState({
      values,
      pending: next,
      profile_loaded: profileLoaded,
      bundle: compiled.fingerprint,
      origins: finalOrigins(origins, values),
    }),
  };
}
