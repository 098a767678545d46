/**
 * The reference engine in the browser: decides a stored turn again with edits, off the main
 * thread (see engine-client.ts). This is the one module of the browser code that imports the
 * engine from server/ (the engine is pure: no Node API); ESLint allows it for this file only.
 */
import type { Bundle } from '../../contract/bundle';
import type { Trace } from '../../contract/trace';
import { whatIf, type WhatIfInput } from '../../../server/engine/what-if';
import { diffOutcomes, turnOutcome } from '../../../server/impact/diff';

export interface EngineRequest {
  id: number;
  /** Names the bundle; the bundle itself comes with the first request that uses the key. */
  key: string;
  bundle?: Bundle;
  input: Omit<WhatIfInput, 'bundle'>;
  recordedReply: string;
}

export type EngineAnswer =
  | {
      id: number;
      ok: true;
      decision: string;
      reply: string;
      trace: Trace;
      overridden: string[];
      differences: ReturnType<typeof diffOutcomes>;
    }
  | { id: number; ok: false; message: string };

/** The last bundles sent (parsed once, compiled once by the engine's cache). */
const bundles = new Map<string, Bundle>();
const KEEP = 2;

self.onmessage = (event: MessageEvent<EngineRequest>) => {
  const { id, key, bundle, input, recordedReply } = event.data;
  let answer: EngineAnswer;
  try {
    if (bundle) {
      bundles.delete(key);
      bundles.set(key, bundle);
      if (bundles.size > KEEP) bundles.delete(bundles.keys().next().value!);
    }
    const known = bundles.get(key);
    if (!known) throw new Error('The bundle of this turn is not loaded');
    const out = whatIf({ ...input, bundle: known });
    answer = {
      id,
      ok: true,
      decision: out.trace.decision,
      reply: out.reply,
      trace: out.trace,
      overridden: out.overridden,
      differences: diffOutcomes(
        turnOutcome(recordedReply, input.recorded as Trace),
        turnOutcome(out.reply, out.trace),
      ),
    };
  } catch (e) {
    answer = { id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(answer);
};
