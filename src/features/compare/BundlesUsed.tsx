/**
 * The bundles each side ran with, turn by turn (from each turn's record: the server's, else this
 * browser's; never a guess), and the diff of the bundles the two sides' last turns ran with. A
 * local bundle is found by hash (this browser's copy, else the server's); the agent's own bundle
 * of the version the turn ran with comes from the reference endpoint when offered.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useAgentBundle } from '../../api/agent-bundle';
import { bundleByHashQueryOptions } from '../../domain/bundles/bundle-archive';
import { bundleText } from '../../domain/bundles/analysis';
import { LazyBundleDiff } from '../../components/monaco/LazyBundleDiff';
import { bundleChangeLine } from '../../lib/bundle-changes';
import { bundleLabel } from '../../domain/threads/run-config';
import type { RunTurn } from './runs';
import { SideSummary } from './RunsSummary';

export interface SideRuns {
  label: string;
  agentId: string | undefined;
  turns: RunTurn[];
}

interface Resolved {
  text: string | null;
  describe: string;
  loading: boolean;
}

function useTurnBundle(agentId: string | undefined, turn: RunTurn | undefined): Resolved {
  const queryClient = useQueryClient();
  const hash = turn?.bundleHash;
  const byHash = useQuery({ ...bundleByHashQueryOptions(queryClient, hash ?? ''), enabled: Boolean(hash) });
  const own = useAgentBundle(hash === null ? agentId : undefined, turn?.versionId);
  if (!turn) return { text: null, describe: 'no turns', loading: false };
  const label = bundleLabel(hash);
  if (hash === undefined) return { text: null, describe: label, loading: false };
  if (hash) {
    if (byHash.isPending) return { text: null, describe: label, loading: true };
    return byHash.data
      ? { text: bundleText(byHash.data.bundle), describe: label, loading: false }
      : { text: null, describe: `${label} (held neither in this browser nor on the server)`, loading: false };
  }
  if (!agentId) return { text: null, describe: `${label} (agent not known)`, loading: false };
  if (own.isPending) return { text: null, describe: label, loading: true };
  return own.data
    ? { text: bundleText(own.data.bundle), describe: label, loading: false }
    : { text: null, describe: `${label} (not offered by this server)`, loading: false };
}

/**
 * For the compare header: what the bundle of B's last turn changes from A's, in words
 * ("Bundle: DISPUTE_WINDOW: window 8 → 30 days"); nothing while either is unknown or they are the same.
 */
export function BundleChangeHeader({ a, b }: { a: SideRuns; b: SideRuns }) {
  const ra = useTurnBundle(a.agentId, a.turns.at(-1));
  const rb = useTurnBundle(b.agentId, b.turns.at(-1));
  const line = useMemo(
    () =>
      ra.text === null || rb.text === null || ra.text === rb.text
        ? undefined
        : bundleChangeLine(JSON.parse(ra.text), JSON.parse(rb.text)),
    [ra.text, rb.text],
  );
  if (!line) return null;
  return (
    <p data-testid="compare-bundle-change" className="w-full text-xs text-zinc-600 dark:text-zinc-300">
      <span className="font-medium">
        Bundle {a.label} → {b.label}:
      </span>{' '}
      {line}
    </p>
  );
}

export function BundlesUsed({ a, b }: { a: SideRuns; b: SideRuns }) {
  const lastA = a.turns.at(-1);
  const lastB = b.turns.at(-1);
  const ra = useTurnBundle(a.agentId, lastA);
  const rb = useTurnBundle(b.agentId, lastB);
  return (
    <section aria-label="Bundles used" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">Bundles used</h3>
      <ul className="text-xs text-zinc-600 dark:text-zinc-400">
        <SideSummary side={a} />
        <SideSummary side={b} />
      </ul>
      {ra.loading || rb.loading ? (
        <p className="text-xs text-zinc-500">Loading the bundles…</p>
      ) : ra.text === null || rb.text === null ? (
        <p className="text-xs text-zinc-500">
          The bundle of {ra.text === null ? `${a.label}’s` : `${b.label}’s`} last turn is not known here (
          {ra.text === null ? ra.describe : rb.describe}), so there is nothing to diff.
        </p>
      ) : ra.text === rb.text ? (
        <p className="text-xs text-zinc-500">Both sides’ last turns ran with the same bundle.</p>
      ) : (
        <div className="flex flex-col gap-1">
          <p className="text-xs text-zinc-500">
            Last turns: {a.label} {ra.describe} against {b.label} {rb.describe}
          </p>
          <div className="h-96 overflow-hidden rounded border border-zinc-200 dark:border-zinc-700">
            <LazyBundleDiff
              original={ra.text}
              modified={rb.text}
              id="compare-bundles"
              label={`Bundle diff: ${a.label} against ${b.label}`}
            />
          </div>
        </div>
      )}
    </section>
  );
}
