/**
 * A draft as something to send: a draft with errors is never sent; the send is refused with a
 * reason in words (BundleBlockedError) before any request leaves. Which bundle a thread sends is
 * the thread's choice (its `runs_with`), not the editor's.
 */
import { useMemo } from 'react';
import { ApiError } from '../../api/errors';
import { bundleHash } from '../../lib/bundle/hash';
import { sendBlockReason } from './analysis';
import { analyzeDraft, useAnalysisVersion } from './analysis-runner';
import { useBundleDraftStore } from './draft-store';
import { ownValue } from '../../lib/own-records';

export type DraftSendState =
  | { status: 'ready'; agentId: string; bundle: Record<string, unknown>; hash: string }
  | { status: 'blocked'; agentId: string; reason: string; checking?: true; missing?: true };

/** What a draft text amounts to when it is to be sent. */
export function draftSendState(agentId: string, text: string | undefined): DraftSendState {
  if (text === undefined) {
    return {
      status: 'blocked',
      agentId,
      reason: `There is no draft of ${agentId || 'this agent'} yet: edit the bundle in the Bundle tab to make one.`,
      missing: true,
    };
  }
  const analysis = analyzeDraft(text);
  const reason = sendBlockReason(analysis);
  if (reason || analysis.kind !== 'parsed')
    return {
      status: 'blocked',
      agentId,
      reason: reason ?? 'The bundle cannot be sent.',
      ...(analysis.kind === 'checking' ? { checking: true as const } : {}),
    };
  return { status: 'ready', agentId, bundle: analysis.bundle, hash: bundleHash(analysis.bundle) };
}

/** The draft of one agent as something to send (re-renders when that draft changes). */
export function useDraftSendState(agentId: string): DraftSendState {
  const text = useBundleDraftStore((s) => ownValue(s.drafts, agentId));
  const analysed = useAnalysisVersion();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `analysed` changes when the worker answers
  return useMemo(() => draftSendState(agentId, text), [agentId, text, analysed]);
}

/** A send refused before any request left, because the bundle to attach cannot be sent. */
export class BundleBlockedError extends ApiError {
  constructor(message: string, guidance?: string) {
    super({
      kind: 'aborted',
      status: 0,
      title: 'Bundle not sent',
      message,
      guidance:
        guidance ??
        'Nothing left this browser. Fix the draft in the Bundle tab (see Problems), or choose what this thread runs with beside the message box.',
    });
    this.name = 'BundleBlockedError';
  }
}

export function isBundleBlockedError(e: unknown): e is BundleBlockedError {
  return e instanceof BundleBlockedError;
}
