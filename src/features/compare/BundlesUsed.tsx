/**
 * The bundles the two sides ran with, and their diff. A branch made here knows its bundle (the
 * lineage's bundle hash, the bundle kept by hash when it was sent); a thread that ran without a
 * local bundle ran with its agent's own bundle (the version the thread ran with, when known), shown
 * from the reference endpoint when offered.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAgentBundle } from '../../api/agent-bundle';
import { bundleText, LazyBundleDiff, recallBundle, shortBundleHash } from '../bundle-editor';

export interface SideBundleSource {
  label: string;
  /** Hash of the local bundle this side ran with, or null when it ran with its agent's own. */
  hash: string | null;
  agentId: string | undefined;
  /** The agent version this side ran with, when known (else the agent's active version is shown). */
  versionId?: string | undefined;
}

const recalledBundleQuery = (hash: string) =>
  queryOptions({
    queryKey: ['local', 'bundle', hash],
    queryFn: () => recallBundle(hash),
    staleTime: Infinity,
  });

interface Resolved {
  text: string | null;
  describe: string;
  loading: boolean;
}

function useSideBundle(side: SideBundleSource): Resolved {
  const local = useQuery({ ...recalledBundleQuery(side.hash ?? ''), enabled: Boolean(side.hash) });
  const agent = useAgentBundle(side.hash ? undefined : side.agentId, side.versionId);
  if (side.hash) {
    const short = shortBundleHash(side.hash);
    if (local.isPending) return { text: null, describe: `local bundle #${short}`, loading: true };
    return local.data
      ? { text: bundleText(local.data), describe: `local bundle #${short}`, loading: false }
      : { text: null, describe: `local bundle #${short} (not kept in this browser)`, loading: false };
  }
  if (!side.agentId)
    return { text: null, describe: 'the agent’s own bundle (agent unknown)', loading: false };
  if (agent.isPending) return { text: null, describe: `${side.agentId}’s own bundle`, loading: true };
  return agent.data
    ? {
        text: bundleText(agent.data.bundle),
        describe: `${side.agentId}’s own bundle (${side.versionId ? 'version' : 'active version'} ${agent.data.version_id ?? side.versionId ?? '?'})`,
        loading: false,
      }
    : { text: null, describe: `${side.agentId}’s own bundle (not offered by this server)`, loading: false };
}

export function BundlesUsed({ a, b }: { a: SideBundleSource; b: SideBundleSource }) {
  const ra = useSideBundle(a);
  const rb = useSideBundle(b);
  return (
    <section aria-label="Bundles used" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">Bundles used</h3>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {a.label}: {ra.describe} · {b.label}: {rb.describe}
      </p>
      {ra.loading || rb.loading ? (
        <p className="text-xs text-zinc-500">Loading the bundles…</p>
      ) : ra.text === null || rb.text === null ? (
        <p className="text-xs text-zinc-500">
          One of the bundles is not known here, so there is nothing to diff.
        </p>
      ) : ra.text === rb.text ? (
        <p className="text-xs text-zinc-500">Both sides ran with the same bundle.</p>
      ) : (
        <div className="h-96 overflow-hidden rounded border border-zinc-200 dark:border-zinc-700">
          <LazyBundleDiff
            original={ra.text}
            modified={rb.text}
            id="compare-bundles"
            label={`Bundle diff: ${a.label} against ${b.label}`}
          />
        </div>
      )}
    </section>
  );
}
