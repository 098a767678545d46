/**
 * A witness: the tool, values and clock at which the engine shows a finding or a difference, and,
 * where one is found, a short conversation that reaches the same outcome. The conversation is
 * written from the values (the tool's name to start it, each value the user gives, the values it
 * asks for answered one by one) and then run on the engine, turn after turn; it is offered only
 * when its last turn decides exactly as the region did (decision, deciding rules, tools invoked,
 * reply) with the same values held. Otherwise the witness is the values alone.
 */
import type { Bundle } from '../../src/contract/bundle';
import type { Witness } from '../../src/contract/analysis';
import { engine } from '../index';
import type { CompiledBundle, CompiledTool } from '../types';
import { readState } from '../state';
import { looseEquals } from '../values';
import { decidedTurn, sameOutcome, type Decided } from './decide';

/** Turns a witness conversation may take: the opening message and the answers to the questions. */
const MAX_TURNS = 8;

const words = (code: string) => code.replace(/[-_.]+/g, ' ').trim();

/** The value as a user would write it alone (a bare answer goes to the value just asked for). */
function said(value: unknown): string | null {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return null;
}

function opening(tool: CompiledTool): string | null {
  const t = tool.tool;
  if (!tool.main || !tool.enabled) return null;
  const name = typeof t.name === 'string' && t.name.trim() ? t.name.trim() : words(tool.code);
  return `I want to ${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}

/** A bundle, its tool and the outcome a witness conversation must reach with it. */
export interface WitnessSide {
  bundle: Bundle;
  compiled: CompiledBundle;
  tool: CompiledTool;
  decided: Decided;
}

/** The messages that should reach `values` for `tool`: the opening with the optional values, then the answers. */
function writeConversation(compiled: CompiledBundle, tool: CompiledTool, values: Record<string, unknown>): { opening: string; given: string[] } | null {
  const first = opening(tool);
  if (first === null) return null;
  const given = Object.keys(values);
  // A value the user cannot give (an integration's or the profile's) cannot be said.
  if (given.some((code) => !compiled.inputParams.some((p) => p.code === code) || said(values[code]) === null))
    return null;
  const required = new Set(tool.required.flat());
  const upFront = given.filter((code) => !required.has(code));
  return { opening: [first, ...upFront.map((code) => `${words(code)}: ${said(values[code])}`)].join('. '), given };
}

/** Whether `messages` end where `side` decided, holding `values`; the messages are extended with the answers asked for. */
function reaches(side: WitnessSide, values: Record<string, unknown>, given: string[], messages: string[], clock: string, answer: boolean): boolean {
  const { bundle, decided } = side;
  let state = engine.initialState(bundle, clock, 'witness');
  for (let turn = 0; turn < MAX_TURNS && turn < messages.length; turn++) {
    const out = engine.runTurn({
      bundle,
      state,
      text: messages[turn]!,
      clock,
      interactionId: `witness-${turn + 1}`,
      userId: 'witness',
    });
    state = out.state;
    const now = decidedTurn(out);
    const asked = askedFor(out.trace.decisions);
    const reply = asked && asked.length === 1 && values[asked[0]!] !== undefined ? said(values[asked[0]!]) : null;
    if (turn + 1 < messages.length) continue;
    if (answer && out.trace.decision === 'request_information' && reply !== null && turn + 1 < MAX_TURNS) {
      messages.push(reply);
      continue;
    }
    const held = readState(out.state).values;
    return sameOutcome(now, decided) && given.every((code) => looseEquals(held[code], values[code]));
  }
  return false;
}

function askedFor(decisions: unknown): string[] | null {
  if (!Array.isArray(decisions)) return null;
  for (let i = decisions.length - 1; i >= 0; i--) {
    const d = decisions[i] as { type?: unknown; params?: unknown };
    if (d?.type === 'ask_question' && Array.isArray(d.params)) return d.params.filter((x) => typeof x === 'string');
  }
  return null;
}

/** The witness of a decided region: its values and clock, with a conversation when one is confirmed. */
export function witnessOf(
  bundle: Bundle,
  compiled: CompiledBundle,
  tool: CompiledTool,
  values: Record<string, unknown>,
  clock: string,
  decided: Decided,
  /** The other bundle of a diff: the same messages must reach its own outcome there. */
  also?: WitnessSide,
): Witness {
  const plan = writeConversation(compiled, tool, values);
  const messages = plan ? [plan.opening] : [];
  const found =
    plan !== null &&
    reaches({ bundle, compiled, tool, decided }, values, plan.given, messages, clock, true) &&
    (!also || reaches(also, values, plan.given, messages, clock, false));
  return { tool: tool.code, clock, values: { ...values }, ...(found ? { messages } : {}) };
}
