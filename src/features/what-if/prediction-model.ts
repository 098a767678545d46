/**
 * What a prediction is asked and how it compares (pure, tested): the question for a turn of a
 * thread (its earlier messages, its clock), or why there is none; where its messages were read;
 * and whether the engine's decisions (of the turn, and of each earlier turn as it replayed it)
 * agree with the deployed service's.
 */
import { PREDICTION_LIMITS } from '../../contract/what-if';
import { traceUserText, type Turn } from '../../domain/transcript/transcript';
import type { PredictionQuestion } from './engine.worker';

/** The turn's clock: the reply's time, as this browser recorded it or the trace gives it. */
function turnClock(turn: Turn): string | undefined {
  const fromTrace = (turn.trace as { created_at?: unknown } | undefined)?.created_at;
  const at = turn.createdAt ?? (typeof fromTrace === 'string' ? fromTrace : undefined);
  return at && Number.isFinite(Date.parse(at)) ? at : undefined;
}

/**
 * The question to ask the engine for `interactionId` in `turns`, or why there is none: the turn
 * and every earlier one must have a known text, at most `PREDICTION_LIMITS.earlierTurns` earlier
 * turns, and a known time. Pure.
 */
export function predictionQuestion(
  turns: readonly Turn[],
  interactionId: string,
  facts: { taskId: string; agentId: string; bundleHash: string; userId: string },
): { question: PredictionQuestion } | { cannot: string } {
  const at = turns.findIndex((t) => t.id === interactionId);
  if (at < 0) return { cannot: 'This turn is not in the thread’s transcript.' };
  if (at > PREDICTION_LIMITS.earlierTurns)
    return {
      cannot:
        `This turn has ${at} earlier turns; at most ${PREDICTION_LIMITS.earlierTurns} are replayed to predict it. ` +
        'Replaying only the last ones would start from a state the thread never had, so no prediction is made.',
    };
  const turn = turns[at]!;
  const unknownText = turns.slice(0, at + 1).find((t) => t.textUnavailable || t.userText.trim() === '');
  if (unknownText)
    return {
      cannot: `The message of turn ${unknownText.index + 1} is not known here (the service does not record texts and this browser did not send it), so the thread cannot be replayed.`,
    };
  const clock = turnClock(turn);
  if (!clock) return { cannot: 'The time of this turn’s reply is not known, so its clock cannot be set.' };
  return {
    question: {
      ...facts,
      clock,
      earlier: turns.slice(0, at).map((t) => ({ interactionId: t.id, text: t.userText })),
      turn: { interactionId: turn.id, text: turn.userText },
    },
  };
}

/** The engine's decision of the turn against the deployed service's: what to say. */
export function predictionAgreement(
  engine: string,
  deployed: string,
): 'same' | 'differs' | 'deployed-unknown' {
  if (!deployed) return 'deployed-unknown';
  return engine === deployed ? 'same' : 'differs';
}

/** One earlier turn whose replay with the user's bundle did not give the deployed service's decision. */
export interface ReplayMismatch {
  /** The turn's number in the thread (1-based). */
  turn: number;
  deployed: string;
  replayed: string;
}

/**
 * The earlier turns the replay decided otherwise than the deployed service did (so the state the
 * prediction starts from may not be the one the deployed service had), and the earlier turns whose
 * deployed decision is not known (so the replay of them could not be checked). Pure.
 */
export function replayCheck(
  turns: readonly Turn[],
  earlierDecisions: readonly string[],
): { mismatches: ReplayMismatch[]; unchecked: number[] } {
  const mismatches: ReplayMismatch[] = [];
  const unchecked: number[] = [];
  earlierDecisions.forEach((replayed, i) => {
    const deployed = turns[i]?.decision ?? '';
    if (!deployed) unchecked.push(i + 1);
    else if (deployed !== replayed) mismatches.push({ turn: i + 1, deployed, replayed });
  });
  return { mismatches, unchecked };
}

/**
 * Where the replayed messages (the earlier ones and the turn's own) were read: the deployed
 * service's traces, which record the message, or this browser's record of what it sent. Pure.
 */
export function messageSources(
  turns: readonly Turn[],
  interactionId: string,
): { fromService: number; fromBrowser: number } {
  const at = turns.findIndex((t) => t.id === interactionId);
  let fromService = 0;
  for (const t of turns.slice(0, at + 1)) if (t.trace && traceUserText(t.trace) !== undefined) fromService++;
  return { fromService, fromBrowser: at + 1 - fromService };
}
