/**
 * The reference service's agent endpoints: create an agent from a bundle, keep its draft, publish
 * a version, activate one, and the agent folders (their problems, a reload). Every change
 * refreshes the agent list and the bundles read from it.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client';
import { apiKeys } from './keys';

const AgentDetailIn = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  active_version: z.string(),
  versions: z.array(z.looseObject({ id: z.string(), tag: z.string().nullish() })),
});
export type AgentDetailIn = z.infer<typeof AgentDetailIn>;

const DraftIn = z.looseObject({
  bundle: z.record(z.string(), z.unknown()),
  updated_at: z.string().nullish(),
});

const ProblemIn = z.looseObject({
  project: z.string(),
  file: z.string(),
  path: z.string(),
  message: z.string(),
  /** `warning`: the project loaded, this part of it was ignored; else the project was skipped. */
  severity: z.string().optional(),
});
export type AgentFolderProblem = z.infer<typeof ProblemIn>;
const ProblemsIn = z.looseObject({ problems: z.array(ProblemIn) });
const ReloadIn = z.looseObject({ agents: z.array(z.string()), problems: z.array(ProblemIn) });

const agentPath = (agentId: string) => `/reference/v1/agents/${encodeURIComponent(agentId)}`;

export interface CreateAgentInput {
  id?: string;
  bundle: Record<string, unknown>;
}

export interface PublishInput {
  agentId: string;
  bundle: Record<string, unknown>;
  tag?: string;
  note?: string;
  activate?: boolean;
}

/** Refreshes the agent list and every agent bundle read from it. */
function useRefreshAgents() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: apiKeys.agents() });
}

export function useCreateAgent() {
  const refresh = useRefreshAgents();
  return useMutation({
    mutationFn: (input: CreateAgentInput) =>
      apiRequest({
        method: 'POST',
        path: '/reference/v1/agents',
        body: { ...(input.id ? { id: input.id } : {}), bundle: input.bundle },
        schema: AgentDetailIn,
        what: 'new agent',
      }),
    onSuccess: () => refresh(),
  });
}

export function usePublishVersion() {
  const refresh = useRefreshAgents();
  return useMutation({
    mutationFn: (input: PublishInput) =>
      apiRequest({
        method: 'POST',
        path: `${agentPath(input.agentId)}/versions`,
        body: {
          bundle: input.bundle,
          ...(input.tag ? { tag: input.tag } : {}),
          ...(input.note ? { note: input.note } : {}),
          ...(input.activate ? { activate: true } : {}),
        },
        schema: AgentDetailIn,
        what: 'published version',
      }),
    onSuccess: () => refresh(),
  });
}

export function useActivateVersion() {
  const refresh = useRefreshAgents();
  return useMutation({
    mutationFn: (input: { agentId: string; version: string }) =>
      apiRequest({
        method: 'POST',
        path: `${agentPath(input.agentId)}/active`,
        body: { version: input.version },
        schema: AgentDetailIn,
        what: 'active version',
      }),
    onSuccess: () => refresh(),
  });
}

/** Keeps the editor's draft of a created agent on the service too. */
export async function putAgentDraft(agentId: string, bundle: Record<string, unknown>): Promise<void> {
  await apiRequest({
    method: 'PUT',
    path: `${agentPath(agentId)}/draft`,
    body: { bundle },
    schema: DraftIn,
    what: 'agent draft',
  });
}

export function useServerDraft(agentId: string, enabled: boolean) {
  return useQuery({ ...serverDraftQueryOptions(agentId), enabled });
}

const serverDraftQueryOptions = (agentId: string) =>
  queryOptions({
    queryKey: [...apiKeys.agents(), agentId, 'draft'],
    queryFn: ({ signal }) =>
      apiRequest({ path: `${agentPath(agentId)}/draft`, schema: DraftIn, what: 'agent draft', signal }),
    staleTime: Infinity,
    retry: false,
  });

/** The agent folders' skipped projects and ignored files (a key for every agent only; others get none). */
export function useAgentFolderProblems(enabled: boolean) {
  return useQuery({ ...folderProblemsQueryOptions(), enabled });
}

const folderProblemsQueryOptions = () =>
  queryOptions({
    queryKey: [...apiKeys.agents(), 'folder-problems'],
    queryFn: async ({ signal }) => {
      try {
        return (
          await apiRequest({
            path: '/reference/v1/agent-folders',
            schema: ProblemsIn,
            what: 'agent folders',
            signal,
          })
        ).problems;
      } catch {
        return [];
      }
    },
    retry: false,
  });

export function useReloadAgentFolders() {
  const refresh = useRefreshAgents();
  return useMutation({
    mutationFn: () =>
      apiRequest({
        method: 'POST',
        path: '/reference/v1/agents/reload',
        schema: ReloadIn,
        what: 'agent folders',
      }),
    onSuccess: () => refresh(),
  });
}
