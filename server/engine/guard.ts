/**
 * The last line of defence: a turn never throws. Should a bundle reach a path the engine does
 * not handle, the turn answers with an error response (still deterministic) and keeps the state.
 */
import type { TurnInput, TurnOutput } from './contract';
import { runTurn } from './turn';

export function guardedTurn(input: TurnInput): TurnOutput {
  try {
    return runTurn(input);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const reply = 'Sorry, something went wrong while handling that message.';
    return {
      reply,
      suggestions: [],
      state: input.state,
      trace: {
        interaction_id: input.interactionId,
        intent: 'error',
        entities: {},
        parameters_extracted: [],
        rules_evaluated: [],
        tools_considered: [],
        tools_invoked: [],
        decision: 'error',
        input: { message: typeof input.text === 'string' ? input.text : '' },
        response: { type: 'error', message: reply, suggestions: [] },
        error: why,
      },
    };
  }
}
