/**
 * The what-if panel's reads besides the service's answer: the bundle the turn ran with, a what-if
 * decided by the engine in this browser (engine-client.ts), and a turn the engine did not run
 * predicted in this browser from its thread and the user's bundle.
 */
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiKeys } from '../../api/keys';
import { agentBundleQueryOptions } from '../../api/agent-bundle';
import type { ValueEditBody, WhatIfResponse } from '../../contract/what-if';
import type { Trace } from '../../contract/trace';
import { bundleByHashQueryOptions } from '../../domain/bundles/bundle-archive';
import type { Bundle } from '../../contract/bundle';
import { decideInBrowser, predictInBrowser } from './engine-client';
import type { PredictionQuestion } from './engine.worker';

type Source = WhatIfResponse['bundle_source'];

/** A what-if's answer, from the engine in this browser or from the service. */
export interface Decided {
  decision: string;
  reply: string;
  overridden: string[];
  differences: WhatIfResponse['differences'];
  /** The what-if's trace (for a test case made from it). */
  trace: Record<string, unknown>;
  where: 'browser' | 'service';
}

/** The bundle the turn ran with: a client bundle by hash (this browser's or the service's copy), else its agent version's. */
export async function turnBundle(queryClient: QueryClient, source: Source): Promise<Record<string, unknown>> {
  const bundle = source.bundle_hash
    ? (await queryClient.fetchQuery(bundleByHashQueryOptions(queryClient, source.bundle_hash)))?.bundle
    : (await queryClient.fetchQuery(agentBundleQueryOptions(source.agent_id, source.version_id))).bundle;
  if (!bundle) throw new Error('The bundle this turn ran with is no longer available.');
  return bundle;
}

const sourceKey = (s: Source | undefined) =>
  s ? `${s.agent_id}\u0000${s.version_id}\u0000${s.bundle_hash ?? ''}` : '';

export const turnBundleQueryOptions = (queryClient: QueryClient, source: Source | undefined) =>
  // The client only reads caches; the source names the bundle.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: apiKeys.whatIfBundle(sourceKey(source)),
    queryFn: () => turnBundle(queryClient, source!),
    staleTime: Infinity,
    retry: false,
  });

export interface InBrowserQuery {
  taskId: string;
  interactionId: string;
  edits: readonly ValueEditBody[];
  source: Source | undefined;
  bundle: Record<string, unknown> | undefined;
  input: WhatIfResponse['engine_input'];
  recordedReply: string;
  /** The predicted turn's bundle hash ('' for a turn the service stored). */
  basis?: string;
}

export const inBrowserQueryOptions = (q: InBrowserQuery) =>
  // The turn and its edits name the answer: the bundle, state and clock are the turn's.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: apiKeys.whatIfInBrowser(q.taskId, q.interactionId, q.edits, q.basis),
    queryFn: async (): Promise<Decided> => {
      const out = await decideInBrowser(
        sourceKey(q.source),
        q.bundle!,
        {
          state: q.input!.state_before,
          clock: q.input!.clock,
          userId: q.input!.user_id,
          recorded: q.input!.recorded as unknown as Trace,
          edits: q.edits,
        },
        q.recordedReply,
      );
      return { ...out, trace: out.trace as unknown as Record<string, unknown>, where: 'browser' };
    },
    retry: false,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

/** A prediction the engine does not make (too many earlier turns, a text not known): said as it is. */
class PredictionRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PredictionRefused';
  }
}

/** The predicted turn: the service's what-if answer shape, and how many earlier turns were replayed. */
export interface Predicted {
  answer: WhatIfResponse;
  replayed: number;
  /** The engine's decision of each earlier turn as it replayed it, oldest first. */
  earlierDecisions: string[];
}

/** The worker's key of a predicted turn's bundle: the same as a stored turn's (`sourceKey`). */
const predictedSourceKey = (agentId: string, hash: string) =>
  sourceKey({ agent_id: agentId, version_id: '', bundle_hash: hash });

/** Keyed by the turn, the bundle's hash and the messages by id (and length, should a text become known). */
const predictedKey = (q: PredictionQuestion | undefined) =>
  apiKeys.whatIfPredicted(
    q?.taskId ?? '',
    q?.turn.interactionId ?? '',
    q?.bundleHash ?? '',
    q ? [q.clock, q.userId, ...[...q.earlier, q.turn].map((m) => [m.interactionId, m.text.length])] : [],
  );

/** The predicted turn (run only with a question and its bundle: `enabled`). */
export const predictedQueryOptions = (question: PredictionQuestion | undefined, bundle: Bundle | undefined) =>
  // The question names the answer; the bundle is the one its hash names.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: predictedKey(question),
    queryFn: async (): Promise<Predicted> => {
      const q = question!;
      const out = await predictInBrowser(predictedSourceKey(q.agentId, q.bundleHash), bundle!, q);
      if (!out.ok) throw new PredictionRefused(out.message);
      return { answer: out.answer, replayed: out.replayed, earlierDecisions: out.earlierDecisions };
    },
    retry: false,
    staleTime: Infinity,
    gcTime: 60_000,
  });
