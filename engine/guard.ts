/**
 * The last line of defence: a turn never throws, but for one reason. Should a bundle reach a
 * path the engine does not handle, the turn answers with an error response (still deterministic)
 * and keeps the state. A turn that would take more than `TURN_WORK_LIMIT` steps (see
 * `work-budget.ts`) throws `WorkBudgetExceeded`: the bundle is too complex to run, which the
 * service answers with a 422 rather than a reply.
 */
import { WorkBudgetExceeded, withWorkBudget } from '../src/lib/bundle/work-budget';
import type { TurnInput, TurnOutput } from './contract';
import { jsonLengthOver } from './output-size';
import { runTurn } from './turn';

/**
 * The most work one turn may do, in steps (a condition or formula node is one step, a rule's
 * evaluation twenty): about 100,000 rule evaluations, well under a second. A turn on the largest
 * example agent takes a few hundred.
 */
export const TURN_WORK_LIMIT = 2_000_000;

/**
 * The longest a turn's trace or state may be once written as JSON (characters). Every value and
 * message is already bounded as it is written; this bounds what holds them, where one value may
 * appear many times.
 */
const TURN_OUTPUT_LIMIT = 8_000_000;

/** Refuses a turn whose trace or state would be longer than `TURN_OUTPUT_LIMIT`. */
function checkOutputSize<T extends TurnOutput>(output: T): T {
  for (const [what, value] of [
    ['trace', output.trace],
    ['state', output.state],
  ] as const) {
    if (jsonLengthOver(value, TURN_OUTPUT_LIMIT))
      throw new WorkBudgetExceeded(
        'running the turn',
        TURN_WORK_LIMIT,
        `would write a ${what} of more than ${TURN_OUTPUT_LIMIT.toLocaleString('en-US')} characters`,
      );
  }
  return output;
}

/** Runs `decide` under the turn's work budget and output limit (both throw `WorkBudgetExceeded`). */
export function guardedRun<T extends TurnOutput>(what: string, decide: () => T): T {
  return checkOutputSize(withWorkBudget(what, TURN_WORK_LIMIT, decide));
}

export function guardedTurn(input: TurnInput): TurnOutput {
  try {
    return guardedRun('running the turn', () => runTurn(input));
  } catch (e) {
    if (e instanceof WorkBudgetExceeded) throw e;
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
