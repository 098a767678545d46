/**
 * What if and why not for a turn the reference engine did not run (a deployed service's), from a
 * bundle the user holds: the thread's earlier messages are replayed to rebuild the state before
 * the turn (`replayThread`), the turn is run from it (the engine's own decision of the turn), and
 * the answer is the one `POST /reference/v1/what-if` gives for a stored turn (`whatIfAnswer`):
 * the why-not list, the editable parameters and what the engine decides the turn from. It is the
 * reference engine's prediction with that bundle, not what the deployed service would decide;
 * `deployed` carries the deployed service's own decision to show beside it. Pure.
 */
import type { Bundle } from '../src/contract/bundle';
import type { WhatIfResponse } from '../src/contract/what-if';
import { replayThread, ReplayRefused, type ThreadMessage } from './replay-thread';
import { whatIfAnswer } from './what-if-answer';

export interface PredictionQuestion {
  taskId: string;
  agentId: string;
  bundleHash: string;
  clock: string;
  userId: string;
  earlier: readonly ThreadMessage[];
  turn: ThreadMessage;
}

export type PredictedBase =
  | {
      ok: true;
      answer: WhatIfResponse;
      replayed: number;
      /** The engine's decision of each earlier turn as it replayed it, oldest first. */
      earlierDecisions: string[];
    }
  | { ok: false; message: string };

export function predictedBase(bundle: Bundle, q: PredictionQuestion): PredictedBase {
  let replay;
  try {
    replay = replayThread({ bundle, clock: q.clock, userId: q.userId, earlier: q.earlier, turn: q.turn });
  } catch (e) {
    if (e instanceof ReplayRefused) return { ok: false, message: e.message };
    throw e;
  }
  const answer = whatIfAnswer(bundle, {
    taskId: q.taskId,
    interactionId: q.turn.interactionId,
    bundleSource: { agent_id: q.agentId, version_id: '', bundle_hash: q.bundleHash },
    stateBefore: replay.stateBefore,
    clock: q.clock,
    userId: q.userId,
    recorded: { trace: replay.turn.trace, reply: replay.turn.reply },
    edits: [],
    whyNot: true,
    includeEngineInput: true,
  });
  if ('refused' in answer) return { ok: false, message: answer.refused.message };
  return {
    ok: true,
    answer: JSON.parse(answer.json) as WhatIfResponse,
    replayed: replay.replayed,
    earlierDecisions: replay.earlierDecisions,
  };
}
