/**
 * The what-if panel's reads besides the service's answer: the bundle the turn ran with, and a
 * what-if decided by the engine in this browser (engine-client.ts).
 */
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiKeys } from '../../api/keys';
import { agentBundleQueryOptions } from '../../api/agent-bundle';
import type { ValueEditBody, WhatIfResponse } from '../../contract/what-if';
import type { Trace } from '../../contract/trace';
import { bundleByHashQueryOptions } from '../../domain/bundles/bundle-archive';
import { decideInBrowser } from './engine-client';

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
}

export const inBrowserQueryOptions = (q: InBrowserQuery) =>
  // The turn and its edits name the answer: the bundle, state and clock are the turn's.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: apiKeys.whatIfInBrowser(q.taskId, q.interactionId, q.edits),
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
