/**
 * A worker thread running `whatIf`, as the browser's Web Worker does (src/features/what-if/
 * engine.worker.ts): the bundle arrives once, each request brings the state, the trace and the
 * edits, and the answer (trace and differences) is posted back, structured-cloned both ways.
 */
import { parentPort } from 'node:worker_threads';
import type { Bundle } from '../../src/contract/bundle';
import type { Trace } from '../../src/contract/trace';
import { whatIf, type WhatIfInput } from '../../engine/what-if';
import { diffOutcomes, turnOutcome } from '../../engine/impact/diff';

let bundle: Bundle | null = null;
parentPort!.on('message', (m: { bundle?: Bundle; input: Omit<WhatIfInput, 'bundle'>; reply: string }) => {
  if (m.bundle) bundle = m.bundle;
  const out = whatIf({ ...m.input, bundle: bundle! });
  parentPort!.postMessage({
    decision: out.trace.decision,
    reply: out.reply,
    trace: out.trace,
    overridden: out.overridden,
    differences: diffOutcomes(
      turnOutcome(m.reply, m.input.recorded as Trace),
      turnOutcome(out.reply, out.trace),
    ),
  });
});
