/**
 * What the impact preview shows for one agent's draft: the saved cases (suites store), the draft
 * (bundle editor) as soon as the editor's worker has found its current text runnable, and the
 * service's answer. There is no settling wait: the worker's check is the only gate, and a newer
 * edit changes the query key, which aborts the older request (the service stops replaying within
 * one batch of conversations); an undo finds its answer cached.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useAgents } from '../../api/agents';
import type { ApiError } from '../../api/errors';
import { toApiError } from '../../api/errors';
import { impactQueryOptions } from '../../api/impact';
import { IMPACT_LIMITS } from '../../contract/impact';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';
import { useDraftSendState } from '../../domain/bundles/active-bundle';
import { selectSuitesHydrated, useSuiteEntries, useSuitesStore } from '../../domain/suites/suites-store';
import { impactCases, impactSummary, type ImpactSummary } from './impact-model';
import { ownValue } from '../../lib/own-records';

export type ImpactState =
  | { kind: 'loading' }
  /** No key yet: nothing can be asked. */
  | { kind: 'no-key' }
  /** The service has no reference helpers (a deployed Messaging API). */
  | { kind: 'unavailable'; total: number }
  | { kind: 'no-cases' }
  | { kind: 'no-draft'; total: number }
  /** More cases or messages than one replay may take (IMPACT_LIMITS). */
  | { kind: 'too-large'; total: number; messages: number }
  | { kind: 'invalid-draft'; total: number }
  /** The draft being checked, or the replay running; `previous` is the last answer, for an older draft. */
  | { kind: 'counting'; total: number; previous: ImpactSummary | null }
  | { kind: 'done'; summary: ImpactSummary }
  | { kind: 'error'; total: number; error: ApiError };

export function useImpactPreview(agentId: string, canFetch: boolean): ImpactState {
  const hydrated = useSuitesStore(selectSuitesHydrated);
  const entries = useSuiteEntries(agentId);
  const text = useBundleDraftStore((s) => ownValue(s.drafts, agentId));
  const hasDraft = text !== undefined;
  const draft = useDraftSendState(agentId);
  const agents = useAgents(canFetch);
  const cases = useMemo(() => impactCases(entries), [entries]);
  const messages = useMemo(() => cases.reduce((n, c) => n + c.messages.length, 0), [cases]);
  const tooLarge = cases.length > IMPACT_LIMITS.cases || messages > IMPACT_LIMITS.messages;

  // The hash is the current text's (null while the worker checks it): an older draft is never asked.
  const hash = draft.status === 'ready' ? draft.hash : null;
  const settled = hash !== null;
  const helpers = agents.isSuccess && agents.data !== null;

  const query = useQuery({
    ...impactQueryOptions({
      agentId,
      bundle: draft.status === 'ready' ? draft.bundle : {},
      bundleHash: hash ?? '',
      cases,
    }),
    enabled: canFetch && helpers && cases.length > 0 && !tooLarge && settled,
    placeholderData: keepPreviousData,
  });
  const answer = query.data?.agent_id === agentId ? query.data : undefined;
  const summary = useMemo(() => (answer ? impactSummary(entries, answer) : null), [answer, entries]);

  const total = entries.length;
  if (!hydrated) return { kind: 'loading' };
  if (total === 0) return { kind: 'no-cases' };
  if (!canFetch) return { kind: 'no-key' };
  if (agents.isLoading) return { kind: 'loading' };
  if (agents.isError) return { kind: 'error', total, error: toApiError(agents.error) };
  if (!helpers) return { kind: 'unavailable', total };
  if (tooLarge) return { kind: 'too-large', total, messages };
  if (!hasDraft) return { kind: 'no-draft', total };
  if (draft.status === 'blocked' && !draft.checking) return { kind: 'invalid-draft', total };
  if (query.isError && !query.isPlaceholderData)
    return { kind: 'error', total, error: toApiError(query.error) };
  if (!settled || query.isPlaceholderData || query.isFetching || !summary)
    return { kind: 'counting', total, previous: summary };
  return { kind: 'done', summary };
}
