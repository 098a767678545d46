/**
 * Replays conversations with a baseline bundle and a draft bundle on the engine (a batch of
 * conversations at a time, in the worker pool in the service) and collects the turns whose outcome
 * differs. It stops before the next batch once `signal` is aborted (the client went away, or a
 * newer edit replaced it).
 *
 * The baseline's runs are remembered (least recently used first out): while a user types, only
 * the draft changes, so each new preview runs the draft alone.
 */
import { createHash } from 'node:crypto';
import type { Bundle } from '../../src/contract/bundle';
import type { ImpactCase, ImpactCaseResult } from '../../src/contract/impact';
import { compareRuns, REPLAY_LIMITS, tooLong, type ConversationRun } from '../../engine/impact/conversations';
import { jsonLength } from '../../engine/output-size';
import type { EngineWork, WorkShare } from '../work/engine-work';

/**
 * About how many messages one piece of work replays: few enough that an abort stops the replay
 * within a few milliseconds of engine time, enough that handing work to the pool costs little.
 */
export const BATCH_MESSAGES = 100;

export function createRunCache(capacity = 2_000, capacityChars: number = REPLAY_LIMITS.cacheChars) {
  const entries = new Map<string, ConversationRun>();
  let chars = 0;
  return {
    get(key: string): ConversationRun | undefined {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    set(key: string, run: ConversationRun): void {
      const old = entries.get(key);
      if (old) chars -= old.chars;
      entries.delete(key);
      entries.set(key, run);
      chars += run.chars;
      while (entries.size > capacity || (chars > capacityChars && entries.size > 0)) {
        const [oldest, dropped] = entries.entries().next().value!;
        entries.delete(oldest);
        chars -= dropped.chars;
      }
    },
    get size(): number {
      return entries.size;
    },
  };
}
export type RunCache = ReturnType<typeof createRunCache>;

export interface ReplayInput {
  /** Runs the conversations (in the worker pool in the service). */
  work: Pick<EngineWork, 'conversations'>;
  /** Whose work it is (the request's key and agent), for the pool's fair shares. */
  share: WorkShare;
  /** The baseline bundle and what names it in the cache (e.g. its version id and hash). */
  baseline: { bundle: Bundle; key: string };
  draft: Bundle;
  cases: readonly ImpactCase[];
  signal: AbortSignal;
  cache: RunCache;
  /** Batches handed to the engine at once (1 unless given): as many as the threads that run them. */
  batchesAtOnce?: number;
}

/** Thrown when the signal is aborted: nobody waits for the answer any more. */
class ReplayAborted extends Error {
  constructor() {
    super('The impact replay was cancelled');
    this.name = 'ReplayAborted';
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The cases from `start` whose messages make about one batch (at least one case). */
function batchFrom(cases: readonly ImpactCase[], start: number): readonly ImpactCase[] {
  let end = start;
  let messages = 0;
  while (end < cases.length && (end === start || messages + cases[end]!.messages.length <= BATCH_MESSAGES))
    messages += cases[end++]!.messages.length;
  return cases.slice(start, end);
}

/**
 * Replays every case with both bundles, a batch of conversations at a time (the baseline's only
 * where they are not remembered), `batchesAtOnce` batches at a time (one per thread that runs
 * them); between two pieces of work, the event loop takes its turn and an aborted signal stops the
 * replay (`ReplayAborted`). The answer is in the cases' order, its limit counted in that order, and
 * at most `batchesAtOnce` batches' results wait for those before them.
 */
export async function replayImpact(input: ReplayInput): Promise<ImpactCaseResult[]> {
  const batches: (readonly ImpactCase[])[] = [];
  for (let start = 0; start < input.cases.length; start += batches.at(-1)!.length)
    batches.push(batchFrom(input.cases, start));

  const results: ImpactCaseResult[] = [];
  let answerChars = 0;
  const done = new Map<number, ImpactCaseResult[]>();
  let answered = 0;
  const answerInOrder = () => {
    for (let ready = done.get(answered); ready; ready = done.get(answered)) {
      done.delete(answered++);
      for (const result of ready) {
        answerChars += jsonLength(result, REPLAY_LIMITS.answerChars);
        results.push(answerChars > REPLAY_LIMITS.answerChars ? withoutChanges(result) : result);
      }
    }
  };

  let next = 0;
  let failed = false;
  const runner = async () => {
    while (!failed && next < batches.length) {
      const index = next++;
      try {
        done.set(index, await replayBatch(input, batches[index]!));
      } catch (error) {
        failed = true;
        throw error;
      }
      answerInOrder();
    }
  };
  const runners = Math.min(Math.max(1, input.batchesAtOnce ?? 1), batches.length);
  await Promise.all(Array.from({ length: runners }, runner));
  return results;
}

/** One batch of cases replayed with both bundles, compared (in the batch's order). */
async function replayBatch(input: ReplayInput, batch: readonly ImpactCase[]): Promise<ImpactCaseResult[]> {
  const { work, share, signal, cache } = input;
  const runAll = async (bundle: Bundle, cases: readonly ImpactCase[]): Promise<ConversationRun[]> => {
    const runs: ConversationRun[] = [];
    while (runs.length < cases.length) {
      await yieldToLoop();
      if (signal.aborted) throw new ReplayAborted();
      const more = await work.conversations(bundle, cases.slice(runs.length), share, 'interactive');
      if (more.length === 0) throw new Error('The engine ran none of the conversations it was given');
      runs.push(...more);
    }
    return runs;
  };

  const keys = batch.map((c) =>
    createHash('sha256')
      .update(JSON.stringify([input.baseline.key, c.clock, c.user_id ?? null, c.messages]))
      .digest('hex'),
  );
  const before = keys.map((key) => cache.get(key));
  const missing = batch.filter((_, i) => !before[i]);
  if (missing.length) {
    const runs = await runAll(input.baseline.bundle, missing);
    let next = 0;
    before.forEach((known, i) => {
      if (known) return;
      const run = runs[next++]!;
      before[i] = run;
      cache.set(keys[i]!, run);
    });
  }
  const after = await runAll(input.draft, batch);
  return batch.map((c, i) => compareRuns(c, before[i]!, after[i]!));
}

/** A case past the answer's limit: said so, without its changes. */
function withoutChanges(result: ImpactCaseResult): ImpactCaseResult {
  if (result.status === 'same') return result;
  return {
    ...result,
    status: 'error',
    changes: [],
    error: result.error ?? {
      side: 'draft',
      turn: result.changes[0]?.turn ?? 0,
      message: tooLong('the changes of this case and those before it', REPLAY_LIMITS.answerChars),
    },
  };
}
