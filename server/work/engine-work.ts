/**
 * The heavy work of a request, behind one interface: validating a bundle, running an engine turn,
 * replaying one conversation for the impact preview. The service runs it in the worker pool
 * (`engine-pool.ts`), so the request loop keeps answering meanwhile; `inlineWork` runs the same
 * work in the calling thread, for tests that give the service an engine of their own.
 */
import type { BundleIssue } from '../../src/contract/api';
import type { Bundle } from '../../src/contract/bundle';
import type { ImpactCase } from '../../src/contract/impact';
import { WorkBudgetExceeded } from '../../src/lib/bundle/work-budget';
import type { Trace } from '../../src/contract/trace';
import type { Engine, TurnInput, TurnOutput } from '../engine/contract';
import { runConversation, type ConversationRun } from '../impact/replay';
import { WorkFailedError } from './pool';

/** A turn's output with its finished trace (`interaction_id`, `latency` as measured), also as JSON text. */
export interface TurnRun {
  reply: string;
  suggestions: string[];
  state: TurnOutput['state'];
  trace: Trace;
  traceJson: string;
}

export interface EngineWork {
  /** The bundle's issues (the document may be anything a client sent). */
  validate(doc: unknown): Promise<BundleIssue[]>;
  turn(input: TurnInput): Promise<TurnRun>;
  /** One impact case's messages, turn after turn, with `bundle`. */
  conversation(bundle: Bundle, c: ImpactCase): Promise<ConversationRun>;
}

/** Whether `error` is a turn or a validation over its work budget (in this thread or a worker). */
export function overWorkBudget(error: unknown): error is Error {
  return (
    error instanceof WorkBudgetExceeded ||
    (error instanceof WorkFailedError && error.errorName === 'WorkBudgetExceeded')
  );
}

/** Runs and times one engine turn; the trace gets its interaction id and latency, and is serialised. */
export function timedTurn(engine: Engine, input: TurnInput): TurnRun {
  const started = performance.now();
  const { reply, suggestions, state, trace } = engine.runTurn(input);
  const elapsed = Math.round((performance.now() - started) * 1000) / 1000;
  const finished = {
    ...trace,
    interaction_id: input.interactionId,
    latency: { elapsed, unit: 'ms' as const },
  };
  return { reply, suggestions, state, trace: finished, traceJson: JSON.stringify(finished) };
}

/** The work done in the calling thread, with the engine and validator given. */
export function inlineWork(engine: Engine, validate: (doc: unknown) => BundleIssue[]): EngineWork {
  return {
    validate: async (doc) => validate(doc),
    turn: async (input) => timedTurn(engine, input),
    conversation: async (bundle, c) => runConversation(engine, bundle, c),
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
