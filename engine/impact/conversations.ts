/**
 * Saved conversations replayed on the engine, turn after turn, and two replays of one case
 * compared: the pure part of the impact preview (the service's `impact-replay.ts` batches, caches
 * and cancels; the worker pool runs `runConversations`).
 */
import type { Bundle } from '../../src/contract/bundle';
import type { ImpactCase, ImpactCaseResult, TurnChange, TurnOutcome } from '../../src/contract/impact';
import type { Engine } from '../contract';
import { jsonLength } from '../output-size';
import { diffOutcomes, turnOutcome } from './diff';

/**
 * What one replay may hold, in characters of JSON: the outcomes of one conversation on one side,
 * every run the cache keeps, and the answer. Each turn is bounded already (`TURN_OUTPUT_LIMIT`);
 * these bound how many of them are held at once.
 */
export const REPLAY_LIMITS = {
  runChars: 2_000_000,
  cacheChars: 64_000_000,
  answerChars: 16_000_000,
} as const;

export interface ConversationRun {
  outcomes: TurnOutcome[];
  /** About how long the outcomes are as JSON. */
  chars: number;
  /** Set when a turn could not run: the 0-based turn and the engine's reason. */
  error?: { turn: number; message: string };
}

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Why a replay's outcomes are too long to compare, and what to do. */
export const tooLong = (what: string, limit: number) =>
  `Too long to compare: ${what} pass ${limit.toLocaleString('en-US')} characters. Replay fewer messages or cases, or shorten the bundle's messages.`;

/** One case's messages with `bundle`, turn after turn, its outcomes bounded (pure, synchronous). */
function runConversation(engine: Engine, bundle: Bundle, c: ImpactCase): ConversationRun {
  const clock = new Date(c.clock).toISOString();
  const userId = c.user_id ?? 'test-user';
  let state = engine.initialState(bundle, clock, userId);
  const outcomes: TurnOutcome[] = [];
  let chars = 0;
  for (const [i, text] of c.messages.entries()) {
    try {
      const out = engine.runTurn({ bundle, state, text, clock, interactionId: `msg-${i + 1}`, userId });
      state = out.state;
      const outcome = turnOutcome(out.reply, out.trace);
      chars += jsonLength(outcome, REPLAY_LIMITS.runChars);
      if (chars > REPLAY_LIMITS.runChars)
        return {
          outcomes,
          chars,
          error: {
            turn: i,
            message: tooLong("this conversation's replies and traces", REPLAY_LIMITS.runChars),
          },
        };
      outcomes.push(outcome);
    } catch (e) {
      return { outcomes, chars, error: { turn: i, message: reasonOf(e) } };
    }
  }
  return { outcomes, chars };
}

/**
 * Conversations one after another with `bundle`, until they are all run or the runs hold
 * `REPLAY_LIMITS.runChars` (at least one is run): the caller asks again for the rest.
 */
export function runConversations(
  engine: Engine,
  bundle: Bundle,
  cases: readonly ImpactCase[],
): ConversationRun[] {
  const runs: ConversationRun[] = [];
  let chars = 0;
  for (const c of cases) {
    if (runs.length > 0 && chars >= REPLAY_LIMITS.runChars) break;
    const run = runConversation(engine, bundle, c);
    chars += run.chars;
    runs.push(run);
  }
  return runs;
}

/** The case's result from its two runs (pure). */
export function compareRuns(
  c: ImpactCase,
  before: Omit<ConversationRun, 'chars'>,
  after: Omit<ConversationRun, 'chars'>,
): ImpactCaseResult {
  const both = Math.min(before.outcomes.length, after.outcomes.length);
  const changes: TurnChange[] = [];
  for (let i = 0; i < both; i++) {
    const differences = diffOutcomes(before.outcomes[i]!, after.outcomes[i]!);
    if (differences.length)
      changes.push({
        turn: i,
        message: c.messages[i]!,
        differences,
        before: before.outcomes[i]!,
        after: after.outcomes[i]!,
      });
  }
  const error = before.error
    ? { side: 'baseline' as const, ...before.error }
    : after.error
      ? { side: 'draft' as const, ...after.error }
      : undefined;
  return {
    id: c.id,
    status: error ? 'error' : changes.length ? 'changed' : 'same',
    turns_run: both,
    changes,
    ...(error ? { error } : {}),
  };
}
