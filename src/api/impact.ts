/**
 * `POST /reference/v1/agents/{id}/impact` (reference service only): which saved conversations a
 * draft bundle changes, against the agent's active version. The query is keyed by the draft's
 * hash and the cases, so a newer edit is a new query and the older one's request is aborted
 * (its signal is handed to fetch); an edit undone finds its answer in the cache.
 */
import { queryOptions } from '@tanstack/react-query';
import { ImpactResponse, type ImpactCase } from '../contract/impact';
import { apiRequest } from './client';
import { apiKeys } from './keys';

export interface ImpactQuery {
  agentId: string;
  bundle: Record<string, unknown>;
  bundleHash: string;
  cases: readonly ImpactCase[];
}

function postImpact(q: ImpactQuery, signal?: AbortSignal): Promise<ImpactResponse> {
  return apiRequest({
    method: 'POST',
    path: `/reference/v1/agents/${encodeURIComponent(q.agentId)}/impact`,
    body: { agent_settings_bundle: q.bundle, cases: q.cases },
    schema: ImpactResponse,
    what: 'impact preview',
    signal,
  });
}

export const impactQueryOptions = (q: ImpactQuery) =>
  // The bundle is named by its hash in the key: the same hash is the same bundle.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: apiKeys.impact(q.agentId, q.bundleHash, q.cases),
    queryFn: ({ signal }) => postImpact(q, signal),
    staleTime: 5 * 60_000,
    gcTime: 60_000,
    retry: false,
  });
