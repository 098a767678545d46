/** `GET /reference/v1/agents/{id}/bundle` (reference service only): an agent's bundle. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client';
import { apiKeys } from './keys';

const AgentBundleIn = z.looseObject({
  agent_id: z.string().nullish(),
  version_id: z.string().nullish(),
  version_tag: z.string().nullish(),
  bundle: z.record(z.string(), z.unknown()),
});
type AgentBundleIn = z.infer<typeof AgentBundleIn>;

export async function getAgentBundle(
  agentId: string,
  versionId?: string,
  signal?: AbortSignal,
): Promise<AgentBundleIn> {
  return apiRequest({
    path: `/reference/v1/agents/${encodeURIComponent(agentId)}/bundle`,
    query: { version_id: versionId },
    schema: AgentBundleIn,
    what: 'agent bundle',
    signal,
  });
}

export const agentBundleQueryOptions = (agentId: string, versionId?: string) =>
  queryOptions({
    queryKey: apiKeys.agentBundle(agentId, versionId),
    queryFn: ({ signal }) => getAgentBundle(agentId, versionId, signal),
    staleTime: 5 * 60_000,
  });

export function useAgentBundle(agentId: string | undefined, versionId?: string) {
  return useQuery({ ...agentBundleQueryOptions(agentId ?? '', versionId), enabled: Boolean(agentId) });
}
