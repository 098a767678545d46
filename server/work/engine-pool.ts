/**
 * The engine's heavy work (validation, turns, impact conversations, what-ifs, lint and diff) on worker threads (`pool.ts`,
 * `engine-worker.ts`): a pool of background threads, which the system runs behind the request
 * loop, and threads at normal priority for the conversations a person waits for as they edit
 * (`priority: 'interactive'`, the impact preview). Bundles are sent as JSON text under a number
 * naming the bundle object, both remembered per object, so the same bundle is serialised once here
 * and parsed once per worker.
 */
import { availableParallelism } from 'node:os';
import type { BundleIssue } from '../../src/contract/api';
import type { DiffResult, LintResponse } from '../../src/contract/analysis';
import type { Bundle } from '../../src/contract/bundle';
import type { ConversationRun } from '../../engine/impact/conversations';
import type { WhatIfAnswer } from '../../engine/what-if-answer';
import type { EngineWork, TurnRun, WorkPriority, WorkShare } from './engine-work';
import type { BundleText, EngineJob, EngineWorkerData } from './engine-worker';
import { WorkerPool, type PoolOptions } from './pool';

export type WorkPoolSettings = Omit<PoolOptions, 'script' | 'workerData'>;

/**
 * One worker per core but one (at least one), 32 waiting (so 8 per key, see `PoolOptions`), 30 s
 * per job from when it is queued (so at most 10 s of it waiting), 512 MB of heap each.
 */
export function defaultPoolSettings(): WorkPoolSettings {
  return {
    size: Math.max(1, availableParallelism() - 1),
    queueLimit: 32,
    deadlineMs: 30_000,
    heapLimitMb: 512,
  };
}

export interface EnginePool extends EngineWork {
  close(): Promise<void>;
}

/**
 * The impact replay's threads: one per core but one (at least one), as many as the background
 * threads, so a preview running at the request loop's priority still leaves the loop a core.
 */
export function interactiveWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

const script = new URL('./engine-worker.mjs', import.meta.url);
const workerData = (priority: WorkPriority): EngineWorkerData => ({ priority });

/**
 * `settings.size` background threads for any one key, plus one: one key runs at most
 * `settings.size` jobs at once, so another key's work (a send behind a flood of why-nots) starts
 * at once on the thread left, sharing the cores with the rest rather than waiting for a job to
 * end. And `interactiveWorkers()` interactive threads (with the same queue, deadline and heap,
 * shared in turn between keys): whatever the background threads are given, an impact replay
 * waits only for other interactive work.
 */
export function createEnginePool(settings: WorkPoolSettings = defaultPoolSettings()): EnginePool {
  const pools: Record<WorkPriority, WorkerPool> = {
    background: new WorkerPool({
      ...settings,
      size: settings.size + 1,
      keyRunLimit: settings.size,
      script,
      workerData: workerData('background'),
    }),
    interactive: new WorkerPool({
      ...settings,
      size: interactiveWorkers(),
      script,
      workerData: workerData('interactive'),
    }),
  };
  const keys = new WeakMap<object, BundleText>();
  let nextKey = 1;
  const textOf = (bundle: Bundle): BundleText => {
    let known = keys.get(bundle);
    if (!known) keys.set(bundle, (known = { key: nextKey++, text: JSON.stringify(bundle) }));
    return known;
  };
  const run = <T>(job: EngineJob, share: WorkShare, priority: WorkPriority = 'background') =>
    pools[priority].run<T>(job, share);
  return {
    // As sent (a structured clone keeps what JSON text would lose, e.g. a number past JSON's range).
    validate: (doc, share) => run<BundleIssue[]>({ kind: 'validate', doc }, share),
    turn: ({ bundle, ...input }, owner, share) =>
      run<TurnRun>({ kind: 'turn', bundle: textOf(bundle), input, owner }, share),
    conversations: (bundle, cases, share, priority) =>
      run<ConversationRun[]>({ kind: 'conversations', bundle: textOf(bundle), cases }, share, priority),
    whatIf: (bundle, question, share) =>
      run<WhatIfAnswer>({ kind: 'whatIf', bundle: textOf(bundle), question }, share),
    lint: (bundle, clock, share) => run<LintResponse>({ kind: 'lint', bundle: textOf(bundle), clock }, share),
    checkRoom: (share) => pools.background.checkRoom(share),
    diff: (base, head, clock, share) =>
      run<DiffResult>({ kind: 'diff', base: textOf(base), head: textOf(head), clock }, share),
    close: async () => {
      await Promise.all([pools.background.close(), pools.interactive.close()]);
    },
  };
}

let shared: EnginePool | undefined;
/** The process's pool with the default settings, made on first use (its workers start with the first job). */
export function sharedEnginePool(): EnginePool {
  return (shared ??= createEnginePool());
}
