/**
 * `GET /reference/v1/agents` (reference service only): the agents and their versions, for the
 * agent picker. A server without it (404/405) answers `null`, and the picker falls back to text.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, type ApiConfig } from './client';
import { isApiError } from './errors';
import { apiKeys } from './keys';

export const AgentIn = z.looseObject({
  id: z.string(),
  name: z
    .string()
    .nullish()
    .transform((s) => s ?? ''),
  description: z
    .string()
    .nullish()
    .transform((s) => s ?? ''),
  active_version: z.string().nullish(),
  versions: z
    .array(
      z.looseObject({
        id: z.string(),
        tag: z.string().nullish(),
        description: z.string().nullish(),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  /** Reference service: `created` agents have a server-side draft and can be published and activated. */
  source: z.string().nullish(),
});
export type AgentIn = z.infer<typeof AgentIn>;
const AgentListIn = z.looseObject({ agents: z.array(AgentIn) });

export async function listAgents(signal?: AbortSignal, config?: ApiConfig): Promise<AgentIn[] | null> {
  try {
    const r = await apiRequest({
      path: '/reference/v1/agents',
      schema: AgentListIn,
      what: 'agent list',
      signal,
      config,
    });
    return r.agents;
  } catch (e) {
    if (isApiError(e) && (e.status === 404 || e.status === 405 || e.kind === 'parse')) return null;
    throw e;
  }
}

export const agentsQueryOptions = () =>
  queryOptions({
    queryKey: apiKeys.agents(),
    queryFn: ({ signal }) => listAgents(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useAgents(enabled = true) {
  return useQuery({ ...agentsQueryOptions(), enabled });
}
