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
import { decidedTurn, sameOutcome, startingValues, type Decided } from './decide';

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

/**
 * The openings that should reach `values` for `tool`: every value said in one message, else the
 * optional values said first and each requirement answered when asked for.
 */
function writeConversation(
  bundle: Bundle,
  compiled: CompiledBundle,
  tool: CompiledTool,
  values: Record<string, unknown>,
  clock: string,
): { openings: string[]; given: string[] } | null {
  const first = opening(tool);
  if (first === null) return null;
  const profile = startingValues(bundle, clock);
  const inputs = new Set(compiled.inputParams.map((p) => p.code));
  // A value the user cannot give (the profile's, an integration's) is said by nobody: it must
  // already be what the request starts with.
  const given = Object.keys(values).filter((code) => inputs.has(code));
  // (A value an integration fills during the turn is the integration's, whatever the region said.)
  const unsaid = Object.keys(values).filter((code) => !inputs.has(code) && compiled.profileParams.has(code));
  if (unsaid.some((code) => !looseEquals(profile[code], values[code]))) return null;
  if (given.some((code) => said(values[code]) === null)) return null;
  // Single requirements are answered when asked for; the rest (optional values, either-or groups) are said up front.
  const required = new Set(tool.required.filter((r) => typeof r === 'string'));
  const say = (codes: string[]) =>
    [first, ...codes.map((code) => `${words(code)}: ${said(values[code])}`)].join('. ');
  const upFront = given.filter((code) => !required.has(code));
  return { openings: [...new Set([say(given), say(upFront)])], given };
}

/** Whether `messages` end where `side` decided, holding `values`; the messages are extended with the answers asked for. */
function reaches(
  side: WitnessSide,
  values: Record<string, unknown>,
  given: string[],
  messages: string[],
  clock: string,
  answer: boolean,
): boolean {
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
    // The first value asked for that the region gives (an OR-group asks for any one of them).
    const answerFor = asked?.find((code) => values[code] !== undefined);
    const reply = answerFor === undefined ? null : said(values[answerFor]);
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
    if (d?.type === 'ask_question' && Array.isArray(d.params))
      return d.params.filter((x) => typeof x === 'string');
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
  const plan = writeConversation(bundle, compiled, tool, values, clock);
  for (const opening of plan?.openings ?? []) {
    const messages = [opening];
    if (
      reaches({ bundle, compiled, tool, decided }, values, plan!.given, messages, clock, true) &&
      (!also || reaches(also, values, plan!.given, messages, clock, false))
    )
      return { tool: tool.code, clock, values: { ...values }, messages };
  }
  return { tool: tool.code, clock, values: { ...values } };
}
