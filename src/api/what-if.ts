/**
 * `POST /reference/v1/what-if` (reference service only): a stored turn decided again with values
 * changed, its understanding held fixed, and on request what would change its decision (why
 * not). Keyed by the turn and the edits, so an edit undone finds its answer in the cache and a
 * newer edit aborts the older request.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { WhatIfResponse, type ValueEditBody } from '../contract/what-if';
import { apiRequest } from './client';
import { apiKeys } from './keys';

export interface WhatIfQuery {
  taskId: string;
  interactionId: string;
  edits: readonly ValueEditBody[];
  whyNot: boolean;
  /** Also answer what the engine decides the turn from, to decide it again in this browser. */
  engineInput?: boolean;
}

function postWhatIf(q: WhatIfQuery, signal?: AbortSignal): Promise<WhatIfResponse> {
  return apiRequest({
    method: 'POST',
    path: '/reference/v1/what-if',
    body: {
      task_id: q.taskId,
      interaction_id: q.interactionId,
      edits: q.edits,
      why_not: q.whyNot,
      include_engine_input: q.engineInput ?? false,
    },
    schema: WhatIfResponse,
    what: 'what-if',
    signal,
  });
}

export const whatIfQueryOptions = (q: WhatIfQuery) =>
  // The key holds every field of the query.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: apiKeys.whatIf(q.taskId, q.interactionId, q.edits, q.whyNot, q.engineInput ?? false),
    queryFn: ({ signal }) => postWhatIf(q, signal),
    staleTime: 5 * 60_000,
    gcTime: 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
