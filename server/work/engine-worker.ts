/**
 * A worker thread of the engine pool: validates bundles, runs turns, replays impact
 * conversations, decides what-ifs, lints bundles and diffs them for the request loop (see `pool.ts` for the messages). Bundles to run
 * arrive as JSON text with a number naming them (a document to validate, as the client sent it);
 * the parsed bundle is kept (least recently used goes first), so
 * a playground sending the same bundle with every message is parsed and compiled once here.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Bundle } from '../../src/contract/bundle';
import type { ImpactCase } from '../../src/contract/impact';
import { validateBundle } from '../../src/lib/bundle/validate';
import { engine } from '../../engine';
import { diffBundles, lintBundle } from '../../engine/analysis';
import type { TurnInput } from '../../engine/contract';
import { runConversations } from '../../engine/impact/conversations';
import { whatIfAnswer, type WhatIfQuestion } from '../../engine/what-if-answer';
import { timedTurn, type TurnOwner, type WorkPriority } from './engine-work';
import { runThisThreadInBackground } from './background-priority';

/** What the pool starts a worker with. */
export interface EngineWorkerData {
  /** `background`: the thread asks the system to run it behind the request loop. */
  priority: WorkPriority;
}

/** A bundle as the pool sends it: a number naming it, and its JSON text. */
export interface BundleText {
  key: number;
  text: string;
}

export type EngineJob =
  | { kind: 'validate'; doc: unknown }
  | { kind: 'turn'; bundle: BundleText; input: Omit<TurnInput, 'bundle'>; owner: TurnOwner }
  | { kind: 'conversations'; bundle: BundleText; cases: readonly ImpactCase[] }
  | { kind: 'whatIf'; bundle: BundleText; question: WhatIfQuestion }
  | { kind: 'lint'; bundle: BundleText; clock: string }
  | { kind: 'diff'; base: BundleText; head: BundleText; clock: string };

const KEPT = 32;
const bundles = new Map<number, Bundle>();

function bundleOf({ key, text }: BundleText): Bundle {
  let bundle = bundles.get(key);
  if (bundle) bundles.delete(key);
  else bundle = JSON.parse(text) as Bundle;
  bundles.set(key, bundle);
  if (bundles.size > KEPT) bundles.delete(bundles.keys().next().value!);
  return bundle;
}

function perform(job: EngineJob): unknown {
  switch (job.kind) {
    case 'validate':
      return validateBundle(job.doc);
    case 'turn':
      return timedTurn(engine, { ...job.input, bundle: bundleOf(job.bundle) }, job.owner);
    case 'conversations':
      return runConversations(engine, bundleOf(job.bundle), job.cases);
    case 'whatIf':
      return whatIfAnswer(bundleOf(job.bundle), job.question);
    case 'lint':
      return lintBundle(bundleOf(job.bundle), { clock: job.clock });
    case 'diff':
      return diffBundles(bundleOf(job.base), bundleOf(job.head), { clock: job.clock });
  }
}

if ((workerData as EngineWorkerData).priority === 'background') runThisThreadInBackground();
parentPort!.postMessage({ ready: true });
parentPort!.on('message', ({ id, job }: { id: number; job: EngineJob }) => {
  try {
    parentPort!.postMessage({ id, ok: true, value: perform(job) });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    parentPort!.postMessage({ id, ok: false, error: { name, message } });
  }
});
