/**
 * The bundle sends and reruns carry as `agent_settings_bundle`: the editor's draft when "Use this
 * bundle" is on and the draft has no errors. A draft with errors is never sent: the send is
 * refused with a reason in words (BundleBlockedError) before any request leaves.
 *
 * Every bundle that is attached is also kept by its hash (IndexedDB), so a later comparison can
 * show the bundles two branches ran with.
 */
import { useMemo } from 'react';
import { ApiError } from '../../api/errors';
import { bundleHash } from '../../lib/bundle/hash';
import { idbGet, idbSet } from '../../lib/idb-storage';
import { sendBlockReason } from './analysis';
import { analyzeDraft, useAnalysisVersion } from './analysis-runner';
import { useBundleDraftStore, type BundleDraftState } from './draft-store';

export type ActiveBundle =
  | { status: 'off' }
  | { status: 'ready'; agentId: string; bundle: Record<string, unknown>; hash: string }
  | { status: 'blocked'; agentId: string; reason: string };

/** What a draft text amounts to when it is to be sent. */
export function draftSendState(
  agentId: string,
  text: string | undefined,
): Exclude<ActiveBundle, { status: 'off' }> {
  if (text === undefined) {
    return {
      status: 'blocked',
      agentId,
      reason: 'There is no bundle draft yet. Open the bundle editor, or turn "Use this bundle" off.',
    };
  }
  const analysis = analyzeDraft(text);
  const reason = sendBlockReason(analysis);
  if (reason || analysis.kind !== 'parsed')
    return { status: 'blocked', agentId, reason: reason ?? 'The bundle cannot be sent.' };
  return { status: 'ready', agentId, bundle: analysis.bundle, hash: bundleHash(analysis.bundle) };
}

export function activeBundleOf(s: Pick<BundleDraftState, 'useBundle' | 'agentId' | 'drafts'>): ActiveBundle {
  if (!s.useBundle) return { status: 'off' };
  return draftSendState(s.agentId, s.drafts[s.agentId]);
}

/** The active bundle and why it cannot be sent, for components (re-renders on draft changes). */
export function useActiveBundleStatus(): ActiveBundle {
  const useBundle = useBundleDraftStore((s) => s.useBundle);
  const agentId = useBundleDraftStore((s) => s.agentId);
  const text = useBundleDraftStore((s) => s.drafts[s.agentId]);
  const analysed = useAnalysisVersion();
  return useMemo(
    () => (useBundle ? draftSendState(agentId, text) : { status: 'off' as const }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `analysed` changes when the worker answers
    [useBundle, agentId, text, analysed],
  );
}

/**
 * The editor's current draft as something to send, whatever the switch says (the rerun dialog
 * offers it explicitly). `fallbackAgentId` is used when the editor has not picked an agent.
 */
export function useDraftSendState(fallbackAgentId: string): Exclude<ActiveBundle, { status: 'off' }> {
  const stored = useBundleDraftStore((s) => s.agentId);
  const agentId = stored || fallbackAgentId;
  const text = useBundleDraftStore((s) => s.drafts[agentId]);
  const analysed = useAnalysisVersion();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `analysed` changes when the worker answers
  return useMemo(() => draftSendState(agentId, text), [agentId, text, analysed]);
}

/** The bundle to attach, or null (off, or blocked: see useActiveBundleStatus for the reason). */
export function useActiveBundle(): Record<string, unknown> | null {
  const active = useActiveBundleStatus();
  return active.status === 'ready' ? active.bundle : null;
}

/** A send refused before any request left, because the bundle to attach has errors. */
export class BundleBlockedError extends ApiError {
  constructor(message: string) {
    super({
      kind: 'aborted',
      status: 0,
      title: 'Bundle not sent',
      message,
      guidance:
        'Nothing left this browser. Fix the bundle in the Bundle tab (see Problems), or turn "Use this bundle" off.',
    });
    this.name = 'BundleBlockedError';
  }
}

export function isBundleBlockedError(e: unknown): e is BundleBlockedError {
  return e instanceof BundleBlockedError;
}

/**
 * For request builders (the chat's send): the bundle to attach, or undefined when the switch is
 * off. Throws BundleBlockedError when the draft must not be sent. Remembers the bundle by hash.
 */
export function bundleForRequest(): Record<string, unknown> | undefined {
  const active = activeBundleOf(useBundleDraftStore.getState());
  if (active.status === 'off') return undefined;
  if (active.status === 'blocked') throw new BundleBlockedError(active.reason);
  void rememberBundle(active.hash, active.bundle);
  return active.bundle;
}

const archiveKey = (hash: string) => `threadline:bundle:${hash}`;

/** Keeps a bundle that was sent, under its hash. */
export async function rememberBundle(hash: string, bundle: unknown): Promise<void> {
  await idbSet(archiveKey(hash), bundle);
}

/** A bundle sent earlier from this browser, by its full hash. */
export async function recallBundle(hash: string): Promise<Record<string, unknown> | null> {
  const v = await idbGet<Record<string, unknown>>(archiveKey(hash));
  return v && typeof v === 'object' ? v : null;
}
