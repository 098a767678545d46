/**
 * "Test connection": proves the base URL answers and the key is accepted, with any Messaging API
 * server, without creating anything. It asks the Messaging API itself for the traces of a task
 * that cannot exist: 404 means "reached and authenticated" (a 200 too), 401 and 403 mean the key
 * is refused. Only then are the reference helpers asked for their agent list, and only their
 * answer for this key counts: a server without them (or one that does not hold this key for
 * them, like the reference service forwarding to a deployed one) just lists no agents.
 */
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { plural } from '../lib/format';
import { listAgents, type AgentIn } from './agents';
import { apiRequest, type ApiConfig } from './client';
import { isApiError, toApiError, type ApiError } from './errors';

/** A task id no service holds, shaped like the UUIDs a deployed service may require. */
const PROBE_TASK_ID = '00000000-0000-0000-0000-000000000000';
export const PROBE_PATH = `/v1/messaging/tasks/${PROBE_TASK_ID}/trace-info`;

export type ConnectionCheck =
  { ok: true; message: string; agents: AgentIn[] | null } | { ok: false; message: string; error?: ApiError };

export async function testConnection(config: ApiConfig, signal?: AbortSignal): Promise<ConnectionCheck> {
  try {
    await apiRequest({ path: PROBE_PATH, schema: z.unknown(), what: 'probe', signal, config });
  } catch (e) {
    const err = toApiError(e);
    if (!(isApiError(e) && e.kind === 'http' && e.status === 404)) {
      if (err.kind === 'http' && err.status === 422)
        return {
          ok: false,
          message:
            'The service answered, but refused the probe as invalid (422), so whether it accepts the key ' +
            'is unknown. Try sending a message.',
          error: err,
        };
      return { ok: false, message: `${err.title}: ${err.guidance}`, error: err };
    }
  }
  let agents: AgentIn[] | null = null;
  try {
    agents = await listAgents(signal, config);
  } catch {
    // The reference helpers did not answer for this key: the Messaging API did, which is what counts.
  }
  const count = agents
    ? ` It offers ${plural(agents.length, 'agent')}.`
    : ' It does not list its agents: type the agent id.';
  return { ok: true, message: `Connected: the service answered and accepted the key.${count}`, agents };
}

const testConnectionMutationOptions = () =>
  mutationOptions({
    mutationKey: ['api', 'test-connection'],
    mutationFn: (config: ApiConfig) => testConnection(config),
  });

export function useTestConnection() {
  return useMutation(testConnectionMutationOptions());
}
