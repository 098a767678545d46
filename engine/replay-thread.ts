/**
 * A turn predicted by the reference engine from a thread's messages alone, for a turn the engine
 * did not run (a deployed service's): the thread's earlier user messages are replayed, one turn
 * each, from a new task's state with the given bundle and clock, which gives the state just
 * before the turn; the turn itself is then run on it, which gives the engine's own decision of
 * the turn. What if and why not decide that turn again from that state. The replay is bounded:
 * at most `REPLAY_LIMITS.earlierTurns` earlier turns, and a thread with more is refused with a
 * reason rather than replayed in part (a part would start from a state the thread never had).
 */
import type { Bundle } from '../src/contract/bundle';
import { PREDICTION_LIMITS } from '../src/contract/what-if';
import type { EngineState, TurnOutput } from './contract';
import { engine } from './index';

/** Earlier turns replayed before the turn (each is one engine turn), characters of one message. */
export const REPLAY_LIMITS = PREDICTION_LIMITS;

/** One user message of the thread, with the id its reply had. */
export interface ThreadMessage {
  interactionId: string;
  text: string;
}

export interface ReplayInput {
  bundle: Bundle;
  /** The clock every turn is run at (the engine reads one clock a task). */
  clock: string;
  userId: string;
  /** The thread's user messages before the turn, oldest first. */
  earlier: readonly ThreadMessage[];
  /** The turn's own message. */
  turn: ThreadMessage;
}

export interface ReplayedTurn {
  /** The engine's state just before the turn. */
  stateBefore: EngineState;
  /** The engine's own run of the turn from that state. */
  turn: TurnOutput;
  /** Earlier turns replayed. */
  replayed: number;
  /** The decision the engine gave each earlier turn as it replayed it, oldest first. */
  earlierDecisions: string[];
}

/** A thread the replay does not take: the message says why, in words. */
export class ReplayRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayRefused';
  }
}

const stored = (state: EngineState): EngineState => JSON.parse(JSON.stringify(state)) as EngineState;

function checkMessage(m: ThreadMessage, what: string): void {
  if (typeof m.text !== 'string' || m.text.trim() === '')
    throw new ReplayRefused(`The text of ${what} is not known, so the thread cannot be replayed.`);
  if (m.text.length > REPLAY_LIMITS.messageChars)
    throw new ReplayRefused(
      `The text of ${what} is longer than ${REPLAY_LIMITS.messageChars.toLocaleString('en-US')} characters.`,
    );
}

/**
 * Replays the earlier messages and runs the turn. Throws `ReplayRefused` (too many earlier turns,
 * a text not known) and, from the engine, `WorkBudgetExceeded` for a bundle too complex to run.
 */
export function replayThread(input: ReplayInput): ReplayedTurn {
  if (input.earlier.length > REPLAY_LIMITS.earlierTurns)
    throw new ReplayRefused(
      `This turn has ${input.earlier.length} earlier turns; at most ${REPLAY_LIMITS.earlierTurns} are replayed, ` +
        'and replaying only the last ones would start from a state the thread never had.',
    );
  input.earlier.forEach((m, i) => checkMessage(m, `turn ${i + 1}`));
  checkMessage(input.turn, 'this turn');
  // Kept between turns as JSON, as the service stores it, so each turn reads what a stored turn reads.
  let state = stored(engine.initialState(input.bundle, input.clock, input.userId));
  const earlierDecisions: string[] = [];
  for (const m of input.earlier) {
    const out = engine.runTurn({
      bundle: input.bundle,
      state: stored(state),
      text: m.text,
      clock: input.clock,
      interactionId: m.interactionId,
      userId: input.userId,
    });
    earlierDecisions.push(out.trace.decision);
    state = stored(out.state);
  }
  const turn = engine.runTurn({
    bundle: input.bundle,
    state: stored(state),
    text: input.turn.text,
    clock: input.clock,
    interactionId: input.turn.interactionId,
    userId: input.userId,
  });
  return { stateBefore: state, turn, replayed: input.earlier.length, earlierDecisions };
}
