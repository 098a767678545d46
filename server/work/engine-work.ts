/**
 * The heavy work of a request, behind one interface: validating a bundle, running an engine turn,
 * replaying conversations for the impact preview, deciding a what-if, linting a bundle and diffing
 * two. The service runs it in the worker pool
 * (`engine-pool.ts`), so the request loop keeps answering meanwhile; `inlineWork` runs the same
 * work in the calling thread, for tests that give the service an engine of their own.
 */
import type { BundleIssue } from '../../src/contract/api';
import type { DiffResult, LintResponse } from '../../src/contract/analysis';
import type { Bundle } from '../../src/contract/bundle';
import type { ImpactCase } from '../../src/contract/impact';
import { WorkBudgetExceeded } from '../../src/lib/bundle/work-budget';
import { diffBundles, lintBundle } from '../../engine/analysis';
import type { Engine, TurnInput, TurnOutput } from '../../engine/contract';
import { runConversations, type ConversationRun } from '../../engine/impact/conversations';
import { turnIndexEntry, type TurnIndexEntry } from '../../engine/turn-index-entry';
import { whatIfAnswer, type WhatIfAnswer, type WhatIfQuestion } from '../../engine/what-if-answer';
import type { ApiKey } from '../auth/api-keys';
import { term } from '../store/turn-terms';
import type { WorkShare } from './fair-queue';
import { WorkFailedError } from './pool';

export type { WorkShare } from './fair-queue';
export { SERVICE_SHARE } from './pool';

/** Whose work it is: the request's API key and, when the work concerns one, the agent (see `fair-queue.ts`). */
export function shareOf(key: ApiKey, agentId = ''): WorkShare {
  return { key: key.key, agent: agentId };
}

/** Whose turn it is, for its turn index entry: the task, its agent, and what the turn runs with. */
export interface TurnOwner {
  taskId: string;
  agentId: string;
  versionId: string;
  bundleHash: string | null;
}

/**
 * A turn's output: its finished trace (`interaction_id`, `latency` as measured) as JSON text, and
 * its turn index entry, both made where the turn ran so the request loop never reads the trace
 * (up to 8,000,000 characters). The entry's position and time are set when the turn is stored.
 */
export interface TurnRun {
  reply: string;
  suggestions: string[];
  state: TurnOutput['state'];
  traceJson: string;
  indexEntry: TurnIndexEntry;
}

/**
 * Who waits for a piece of work: `interactive` when a person waits for it as they edit (the
 * impact preview), run at normal priority apart from the rest; `background` for the rest, run
 * behind the request loop (see `engine-pool.ts`).
 */
export type WorkPriority = 'background' | 'interactive';

/**
 * Each piece of work names whose it is (`share`: the request's key and agent), so that the pool
 * gives every key, and every agent within it, its turn (see `fair-queue.ts`).
 */
export interface EngineWork {
  /** The bundle's issues (the document may be anything a client sent). */
  validate(doc: unknown, share: WorkShare): Promise<BundleIssue[]>;
  turn(input: TurnInput, owner: TurnOwner, share: WorkShare): Promise<TurnRun>;
  /**
   * Impact cases' messages, turn after turn, with `bundle`, in order: all of them, or fewer
   * (at least one) once their outcomes reach `REPLAY_LIMITS.runChars`. In the background unless
   * `priority` says otherwise.
   */
  conversations(
    bundle: Bundle,
    cases: readonly ImpactCase[],
    share: WorkShare,
    priority?: WorkPriority,
  ): Promise<ConversationRun[]>;
  /** A stored turn decided again with `bundle` (`POST /reference/v1/what-if`). */
  whatIf(bundle: Bundle, question: WhatIfQuestion, share: WorkShare): Promise<WhatIfAnswer>;
  /**
   * Rejects with the busy refusal (`WorkRefusedError`) that background work of `share` would meet
   * now, if it would: asked before a request reads what its work needs (a what-if's recorded
   * turn), so that a key flooding the pool is refused at little cost. Nothing is reserved.
   */
  checkRoom(share: WorkShare): Promise<void>;
  /** The findings of a valid bundle, its day windows counted from `clock` (`POST /reference/v1/lint`). */
  lint(bundle: Bundle, clock: string, share: WorkShare): Promise<LintResponse>;
  /** What changes from `base` to `head`, two valid bundles of one agent (`POST /reference/v1/diff`). */
  diff(base: Bundle, head: Bundle, clock: string, share: WorkShare): Promise<DiffResult>;
}

/** Whether `error` is a turn or a validation over its work budget (in this thread or a worker). */
export function overWorkBudget(error: unknown): error is Error {
  return (
    error instanceof WorkBudgetExceeded ||
    (error instanceof WorkFailedError && error.errorName === 'WorkBudgetExceeded')
  );
}

/**
 * Runs and times one engine turn; the trace gets its interaction id and latency, and is
 * serialised; the turn index entry is built from it (at position 0 and without a time: the store
 * sets both).
 */
export function timedTurn(engine: Engine, input: TurnInput, owner: TurnOwner): TurnRun {
  const started = performance.now();
  const { reply, suggestions, state, trace } = engine.runTurn(input);
  const elapsed = Math.round((performance.now() - started) * 1000) / 1000;
  const finished = {
    ...trace,
    interaction_id: input.interactionId,
    latency: { elapsed, unit: 'ms' as const },
  };
  const indexEntry = turnIndexEntry(
    { agentId: owner.agentId, userId: input.userId },
    {
      taskId: owner.taskId,
      interactionId: input.interactionId,
      userMessage: { text: input.text },
      reply: { text: reply, createdAt: '' },
      trace: finished,
      state,
      bundleHash: owner.bundleHash,
      versionId: owner.versionId,
    },
    0,
    term,
  );
  return { reply, suggestions, state, traceJson: JSON.stringify(finished), indexEntry };
}

/** The work done in the calling thread, with the engine and validator given. */
export function inlineWork(engine: Engine, validate: (doc: unknown) => BundleIssue[]): EngineWork {
  return {
    validate: async (doc) => validate(doc),
    turn: async (input, owner) => timedTurn(engine, input, owner),
    conversations: async (bundle, cases) => runConversations(engine, bundle, cases),
    whatIf: async (bundle, question) => whatIfAnswer(bundle, question),
    checkRoom: async () => {},
    lint: async (bundle, clock) => lintBundle(bundle, { clock }),
    diff: async (base, head, clock) => diffBundles(base, head, { clock }),
  };
}

/** The work the dependencies name, or the same work in the calling thread with their engine and validator. */
export function workOf(deps: {
  work?: EngineWork | undefined;
  engine: Engine;
  bundles: { validate(doc: unknown): BundleIssue[] };
}): EngineWork {
  return deps.work ?? inlineWork(deps.engine, (doc) => deps.bundles.validate(doc));
}
