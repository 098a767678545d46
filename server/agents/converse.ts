/** Drives a conversation with an example agent through the engine, turn by turn (for tests and scripts). */
import type { Bundle } from '../../src/contract/bundle';
import type { TurnOutput } from '../../engine/contract';
import { engine } from '../../engine';
import { loadAgents, resolveVersion, type AgentRecord } from './registry';

let cached: AgentRecord[] | null = null;
export function exampleAgents(): AgentRecord[] {
  return (cached ??= loadAgents());
}

export function exampleBundle(
  agentId: string,
  pin: { version_id?: string; version_tag?: string } = {},
): Bundle {
  const agent = exampleAgents().find((a) => a.id === agentId);
  const version = agent && resolveVersion(agent, pin);
  if (!version) throw new Error(`No example agent ${agentId} with ${JSON.stringify(pin)}`);
  return version.bundle;
}

export interface Conversation {
  say(text: string): TurnOutput;
  readonly turns: TurnOutput[];
}

export function converse(bundle: Bundle, clock: string, userId = 'user-1'): Conversation {
  let state = engine.initialState(bundle, clock, userId);
  const turns: TurnOutput[] = [];
  return {
    turns,
    say(text: string) {
      const out = engine.runTurn({
        bundle,
        state,
        text,
        clock,
        interactionId: `msg-${turns.length + 1}`,
        userId,
      });
      state = out.state;
      turns.push(out);
      return out;
    },
  };
}

/** `rule_id → result` of a turn, for compact assertions. */
export function ruleResults(out: TurnOutput): Record<string, string> {
  return Object.fromEntries(out.trace.rules_evaluated.map((r) => [r.rule_id, r.result]));
}

/** `tool/integration:result` of every call in a turn. */
export function calls(out: TurnOutput): string[] {
  return out.trace.tools_invoked.map((t) => `${t.tool}/${String(t.integration ?? '-')}:${t.result}`);
}
