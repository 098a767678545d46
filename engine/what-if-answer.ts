/**
 * The answer of `POST /reference/v1/what-if` as JSON text, from what the route read: the turn
 * decided again with the edits, its differences from the recorded turn and, on request, the
 * why-not list. It is engine work (a why-not list decides the turn dozens of times), so the
 * service runs it in the worker pool (`../work/`), and its answer comes back as text ready to send.
 */
import type { Bundle } from '../src/contract/bundle';
import type { Trace } from '../src/contract/trace';
import type { WhatIfRequest } from '../src/contract/what-if';
import type { EngineState } from './contract';
import { editableParameters } from './editable-parameters';
import { whatIf, WhatIfInputError } from './what-if';
import { whyNot } from './why-not';
import { diffOutcomes, turnOutcome } from './impact/diff';

/** What a what-if is decided from, besides the bundle. */
export interface WhatIfQuestion {
  taskId: string;
  interactionId: string;
  bundleSource: { agent_id: string; version_id: string; bundle_hash: string | null };
  stateBefore: EngineState;
  clock: string;
  userId: string;
  recorded: { trace: Trace; reply: string };
  edits: WhatIfRequest['edits'];
  whyNot: boolean;
  includeEngineInput: boolean;
}

/** The answer's JSON text, or the edit or recorded turn the engine cannot decide (a 422 at `path`). */
export type WhatIfAnswer = { json: string } | { refused: { message: string; path: (string | number)[] } };

export function whatIfAnswer(bundle: Bundle, q: WhatIfQuestion): WhatIfAnswer {
  const input = {
    bundle,
    state: q.stateBefore,
    clock: q.clock,
    userId: q.userId,
    recorded: q.recorded.trace,
  };
  try {
    const out = whatIf({ ...input, edits: q.edits });
    const { latency: _latency, ...recordedTrace } = q.recorded.trace;
    const answer = {
      task_id: q.taskId,
      interaction_id: q.interactionId,
      not_a_conversation_turn: true as const,
      bundle_source: q.bundleSource,
      parameters: editableParameters(bundle, q.recorded.trace, q.stateBefore, out.state),
      recorded: { decision: q.recorded.trace.decision, reply: q.recorded.reply },
      what_if: {
        decision: out.trace.decision,
        reply: out.reply,
        suggestions: out.suggestions,
        trace: out.trace,
        overridden: out.overridden,
      },
      differences: diffOutcomes(
        turnOutcome(q.recorded.reply, recordedTrace),
        turnOutcome(out.reply, out.trace),
      ),
      ...(q.whyNot ? { why_not: whyNot(input) } : {}),
      ...(q.includeEngineInput
        ? {
            engine_input: {
              state_before: q.stateBefore,
              clock: q.clock,
              user_id: q.userId,
              recorded: q.recorded.trace,
            },
          }
        : {}),
    };
    return { json: JSON.stringify(answer) };
  } catch (e) {
    if (e instanceof WhatIfInputError) return { refused: { message: e.message, path: e.path } };
    throw e;
  }
}
