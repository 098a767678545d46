/**
 * "Test connection": proves the base URL answers and the key is accepted, with any Messaging API
 * server. The reference service's agent list answers 200 when the key is good; elsewhere it reads
 * the traces of a task that cannot exist: 404 means "reached and authenticated", 401 and 403 mean
 * the key is refused.
 */
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { listAgents, type AgentIn } from './agents';
import { apiRequest, type ApiConfig } from './client';
import { isApiError, toApiError, type ApiError } from './errors';

export const PROBE_TASK_ID = 'threadline-connection-probe';

export type ConnectionCheck =
  { ok: true; message: string; agents: AgentIn[] | null } | { ok: false; message: string; error: ApiError };

export async function testConnection(config: ApiConfig, signal?: AbortSignal): Promise<ConnectionCheck> {
  const fail = (e: unknown): ConnectionCheck => {
    const err = toApiError(e);
    return { ok: false, message: `${err.title}: ${err.guidance}`, error: err };
  };
  // The reference service answers its agent list (200) when the key is good.
  let agents: AgentIn[] | null;
  try {
    agents = await listAgents(signal, config);
  } catch (e) {
    return fail(e);
  }
  if (agents === null) {
    // Any other Messaging API server: a trace list of a task that cannot exist.
    try {
      await apiRequest({
        path: `/v1/messaging/tasks/${PROBE_TASK_ID}/trace-info`,
        schema: z.unknown(),
        what: 'probe',
        signal,
        config,
      });
    } catch (e) {
      const acceptable = isApiError(e) && e.kind === 'http' && (e.status === 404 || e.status === 422);
      if (!acceptable) return fail(e);
    }
  }
  const count = agents ? ` It offers ${agents.length} agent${agents.length === 1 ? '' : 's'}.` : '';
  return { ok: true, message: `Connected: the service answered and accepted the key.${count}`, agents };
}

export const testConnectionMutationOptions = () =>
  mutationOptions({
    mutationKey: ['api', 'test-connection'],
    mutationFn: (config: ApiConfig) => testConnection(config),
  });

export function useTestConnection() {
  return useMutation(testConnectionMutationOptions());
}
