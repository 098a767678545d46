/**
 * A bundle's change from its agent's own bundle, in words (lib/bundle-changes), for the places
 * that name a bundle by hash: the rerun dialog's draft, the branch tree. The agent's own bundle
 * comes from the reference service; elsewhere there is nothing to compare with and nothing is said.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useAgentBundle } from '../../api/agent-bundle';
import { bundleChangeLine } from '../../lib/bundle-changes';
import { bundleByHashQueryOptions } from './bundle-archive';

/**
 * The change line of a bundle (given, or by hash) against the agent's own; null when they are
 * the same; undefined while either is loading or not known here.
 */
export function useChangeFromOwn(
  agentId: string | undefined,
  bundle: { hash: string } | { bundle: Record<string, unknown> } | undefined,
): string | null | undefined {
  const queryClient = useQueryClient();
  const hash = bundle && 'hash' in bundle ? bundle.hash : '';
  const byHash = useQuery({ ...bundleByHashQueryOptions(queryClient, hash), enabled: Boolean(hash) });
  const own = useAgentBundle(bundle ? agentId : undefined);
  const after = bundle && 'bundle' in bundle ? bundle.bundle : byHash.data?.bundle;
  const before = own.data?.bundle;
  // Computed once per pair of bundles, not on every render of the row or dialog showing it.
  return useMemo(
    () => (!after || !before ? undefined : (bundleChangeLine(before, after) ?? null)),
    [before, after],
  );
}
