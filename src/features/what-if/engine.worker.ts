/**
 * The reference engine in the browser, off the main thread (see engine-client.ts): decides a
 * turn again with edits (`what-if`), and predicts a turn the engine did not run, from its thread's
 * messages and a bundle the user holds (`predict`: the why-not list, the editable parameters and
 * the state before the turn, see engine/predicted-base.ts). The engine is pure (no Node API), and
 * the page imports it only from Web Worker modules like this one, so it never runs on the main
 * thread.
 */
import type { Bundle } from '../../contract/bundle';
import type { Trace } from '../../contract/trace';
import { whatIf, type WhatIfInput } from '../../../engine/what-if';
import { diffOutcomes, turnOutcome } from '../../../engine/impact/diff';
import { predictedBase, type PredictedBase, type PredictionQuestion } from '../../../engine/predicted-base';

interface WithBundle {
  id: number;
  /** Names the bundle; the bundle itself comes with the first request that uses the key. */
  key: string;
  bundle?: Bundle;
}

export type EngineRequest = WithBundle &
  (
    | { kind: 'what-if'; input: Omit<WhatIfInput, 'bundle'>; recordedReply: string }
    | { kind: 'predict'; question: PredictionQuestion }
  );

export type WhatIfInputForWorker = Omit<WhatIfInput, 'bundle'>;
export type { PredictedBase, PredictionQuestion };

export interface DecidedInWorker {
  decision: string;
  reply: string;
  trace: Trace;
  overridden: string[];
  differences: ReturnType<typeof diffOutcomes>;
}

export type EngineAnswer =
  | ({ id: number; ok: true; kind: 'what-if' } & DecidedInWorker)
  | { id: number; ok: true; kind: 'predict'; predicted: PredictedBase }
  /** `unknownBundle`: the key's bundle is no longer kept here; send it again. */
  | { id: number; ok: false; message: string; unknownBundle?: true };

/** The last bundles sent (parsed once, compiled once by the engine's cache). */
const bundles = new Map<string, Bundle>();
const KEEP = 2;

function answerOf(request: EngineRequest, bundle: Bundle): EngineAnswer {
  const { id } = request;
  if (request.kind === 'predict')
    return { id, ok: true, kind: 'predict', predicted: predictedBase(bundle, request.question) };
  const { input, recordedReply } = request;
  const out = whatIf({ ...input, bundle });
  return {
    id,
    ok: true,
    kind: 'what-if',
    decision: out.trace.decision,
    reply: out.reply,
    trace: out.trace,
    overridden: out.overridden,
    differences: diffOutcomes(
      turnOutcome(recordedReply, input.recorded as Trace),
      turnOutcome(out.reply, out.trace),
    ),
  };
}

self.onmessage = (event: MessageEvent<EngineRequest>) => {
  const { id, key, bundle } = event.data;
  let answer: EngineAnswer;
  try {
    if (bundle) {
      bundles.delete(key);
      bundles.set(key, bundle);
      if (bundles.size > KEEP) bundles.delete(bundles.keys().next().value!);
    }
    const known = bundles.get(key);
    answer = known
      ? answerOf(event.data, known)
      : { id, ok: false, message: 'The bundle of this turn is not loaded', unknownBundle: true };
  } catch (e) {
    answer = { id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(answer);
};
