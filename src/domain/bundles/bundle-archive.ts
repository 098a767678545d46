/**
 * Bundles by content hash: every bundle this browser sent is kept (IndexedDB) under its hash, and
 * the reference service keeps every bundle that ran (`GET /reference/v1/bundles/{hash}`). A
 * bundle is looked up here first, then on the server, so a link opened in another browser finds
 * the bundles its threads ran with.
 */
import { queryOptions } from '@tanstack/react-query';
import { apiKeys } from '../../api/keys';
import { storedBundleQueryOptions } from '../../api/lineage';
import { idbGet, idbSet } from '../../lib/idb-storage';
import type { QueryClient } from '@tanstack/react-query';

const archiveKey = (hash: string) => `threadline:bundle:${hash}`;

/** Keeps a bundle that was sent, under its hash. */
export async function rememberBundle(hash: string, bundle: unknown): Promise<void> {
  await idbSet(archiveKey(hash), bundle);
}

/** A bundle sent earlier from this browser, by its full hash. */
async function recallBundle(hash: string): Promise<Record<string, unknown> | null> {
  const v = await idbGet<Record<string, unknown>>(archiveKey(hash));
  return v && typeof v === 'object' ? v : null;
}

export interface BundleByHash {
  bundle: Record<string, unknown>;
  /** Where it was found. */
  from: 'browser' | 'server';
}

/** This browser's copy, else the server's (null when neither holds it). */
export const bundleByHashQueryOptions = (queryClient: QueryClient, hash: string) =>
  queryOptions({
    queryKey: apiKeys.bundleByHash(hash),
    queryFn: async (): Promise<BundleByHash | null> => {
      const local = await recallBundle(hash);
      if (local) return { bundle: local, from: 'browser' };
      const stored = await queryClient.fetchQuery(storedBundleQueryOptions(hash));
      return stored ? { bundle: stored.bundle, from: 'server' } : null;
    },
    staleTime: Infinity,
  });
