/**
 * Gathering what a share holds, from the caches the app already has (TanStack Query for the
 * server's traces, IndexedDB for this browser's records): the threads of a family (a thread and
 * its branches, from the lineage), and the bundle a thread ran with.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { getAgentBundle } from '../../api/agent-bundle';
import { getAllTraces } from '../../api/all-traces';
import { buildBranchTree, flattenTree, type LineageRecord } from '../../domain/lineage/lineage';
import { apiKeys } from '../../api/keys';
import { bundleByHashQueryOptions } from '../../domain/bundles/bundle-archive';
import { buildTranscript } from '../../domain/transcript/transcript';
import { localTurnsQueryOptions } from '../../domain/threads/local-turns';
import { type ThreadRecord } from '../../domain/threads/threads-store';
import type { ThreadSource } from './build';

/** The task ids of the family `taskId` belongs to, root first (pre-order). */
export function familyOf(taskId: string, lineage: readonly LineageRecord[]): string[] {
  return flattenTree(buildBranchTree(taskId, lineage)).map((n) => n.task_id);
}

/** One thread's transcript: the server's traces (when reachable) merged with local records. */
async function collectThread(
  queryClient: QueryClient,
  id: string,
  record: ThreadRecord | undefined,
): Promise<ThreadSource> {
  const [traces, local] = await Promise.all([
    getAllTraces(id).catch(() => undefined),
    queryClient.fetchQuery(localTurnsQueryOptions(id)).catch(() => undefined),
  ]);
  return { id, record, turns: buildTranscript(traces, local) };
}

export async function collectThreads(
  queryClient: QueryClient,
  ids: readonly string[],
  records: ReadonlyMap<string, ThreadRecord>,
): Promise<ThreadSource[]> {
  return Promise.all(ids.map((id) => collectThread(queryClient, id, records.get(id))));
}

export interface BundleChoice {
  json: Record<string, unknown>;
  hash: string | null;
  /** Where it comes from, in words. */
  source: string;
}

/**
 * The bundle a thread ran with: the bundle of its latest turn that carried one (`hashes`: each
 * turn's bundle hash, in order), found by hash as everywhere else (this browser's copy, else the
 * server's), else the agent's own bundle when the service publishes it.
 */
async function findBundle(
  queryClient: QueryClient,
  hashes: readonly (string | null | undefined)[],
  agentId: string | undefined,
  versionId: string | undefined,
): Promise<BundleChoice | null> {
  for (let i = hashes.length - 1; i >= 0; i -= 1) {
    const hash = hashes[i];
    if (!hash) continue;
    const found = await queryClient.fetchQuery(bundleByHashQueryOptions(queryClient, hash)).catch(() => null);
    if (found) {
      const where = found.from === 'browser' ? 'the local bundle' : 'the server’s copy of the bundle';
      return { json: found.bundle, hash, source: `${where} of turn ${i + 1}` };
    }
  }
  if (!agentId) return null;
  try {
    const r = await getAgentBundle(agentId, versionId);
    return {
      json: r.bundle,
      hash: null,
      source: `the agent's bundle (${agentId}${r.version_tag ? ` ${r.version_tag}` : ''})`,
    };
  } catch {
    return null;
  }
}

/** The bundle a thread ran with, looked up once per dialog (local archive first, then the service). */
export const shareBundleQueryOptions = (
  taskId: string,
  hashes: readonly (string | null)[],
  agentId: string | undefined,
  versionId: string | undefined,
) =>
  queryOptions({
    queryKey: apiKeys.shareBundle(taskId, hashes, agentId, versionId),
    queryFn: ({ client }) => findBundle(client, hashes, agentId, versionId),
    staleTime: 60_000,
  });
