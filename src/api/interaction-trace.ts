/** `GET /v1/messaging/tasks/{task_id}/interactions/{interaction_id}/trace-info`: one trace. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TolerantTrace } from '../contract/trace';
import { apiRequest } from './client';
import { apiKeys } from './keys';

async function getInteractionTrace(
  taskId: string,
  interactionId: string,
  signal?: AbortSignal,
): Promise<TolerantTrace> {
  return apiRequest({
    path: `/v1/messaging/tasks/${encodeURIComponent(taskId)}/interactions/${encodeURIComponent(interactionId)}/trace-info`,
    schema: TolerantTrace,
    what: 'trace',
    signal,
  });
}

const interactionTraceQueryOptions = (taskId: string, interactionId: string) =>
  queryOptions({
    queryKey: apiKeys.trace(taskId, interactionId),
    queryFn: ({ signal }) => getInteractionTrace(taskId, interactionId, signal),
    staleTime: Infinity,
  });

export function useInteractionTrace(
  taskId: string | undefined,
  interactionId: string | undefined,
  enabled = true,
) {
  return useQuery({
    ...interactionTraceQueryOptions(taskId ?? '', interactionId ?? ''),
    enabled: enabled && Boolean(taskId && interactionId),
  });
}
