/**
 * What if and why not on a service that does not keep the state before a turn (a deployed
 * service): the turn is predicted by the reference engine in this browser's worker, with the
 * user's bundle of the thread's agent (its draft in the Bundle tab, where an imported project or
 * bundle file also goes), by replaying the thread's earlier messages at the turn's clock (the
 * reply's time). The answer is the engine's prediction with that bundle, never the deployed
 * service's decision; the deployed service's decision of the turn is kept beside it. Without a
 * bundle, or for a turn that cannot be replayed, the state says why.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDraftSendState } from '../../domain/bundles/active-bundle';
import { selectHydrated, useBundleDraftStore } from '../../domain/bundles/draft-store';
import { useConnectionStore } from '../../domain/connection/connection-store';
import { selectThread, useThreadsStore } from '../../domain/threads/threads-store';
import { useTranscript } from '../../domain/transcript/use-transcript';
import { engineWorkerAvailable } from './engine-client';
import { predictionQuestion } from './prediction-model';
import { predictedQueryOptions, type Predicted } from './what-if-queries';

/** What the prediction is of and with: said on screen beside it. */
export interface PredictionFacts {
  agentId: string;
  /** The bundle predicted with (the draft), for a why-not bundle change to apply to. */
  bundle: Record<string, unknown>;
  bundleHash: string;
  /** Earlier turns replayed. */
  replayed: number;
  clock: string;
  /** The deployed service's own decision and reply of the turn. */
  deployed: { decision: string; reply: string };
}

export type PredictionState =
  | { kind: 'loading' }
  /** No bundle of the thread's agent in this browser. */
  | { kind: 'no-bundle'; agentId: string }
  /** The draft cannot be run (invalid, still being checked). */
  | { kind: 'invalid-bundle'; agentId: string; reason: string; checking: boolean }
  /** The turn cannot be predicted: the reason in words. */
  | { kind: 'cannot'; message: string }
  | { kind: 'error'; error: unknown }
  | { kind: 'ready'; predicted: Predicted; facts: PredictionFacts };

export function usePrediction(taskId: string, interactionId: string, enabled: boolean): PredictionState {
  const thread = useThreadsStore(selectThread(taskId));
  const connectedAgent = useConnectionStore((s) => s.agentId);
  const connectedUser = useConnectionStore((s) => s.userId);
  const agentId = thread?.agent_id || connectedAgent;
  const userId = thread?.user_id || connectedUser || 'playground-user';
  const hydrated = useBundleDraftStore(selectHydrated);
  const draft = useDraftSendState(agentId);
  const transcript = useTranscript(enabled ? taskId : undefined);
  const bundleHash = draft.status === 'ready' ? draft.hash : '';
  const asked = useMemo(
    () =>
      bundleHash
        ? predictionQuestion(transcript.turns, interactionId, { taskId, agentId, bundleHash, userId })
        : undefined,
    [transcript.turns, interactionId, taskId, agentId, bundleHash, userId],
  );
  const question = asked && 'question' in asked ? asked.question : undefined;
  const bundle = draft.status === 'ready' ? draft.bundle : undefined;
  const query = useQuery({
    ...predictedQueryOptions(question, bundle),
    enabled: enabled && Boolean(question && bundle) && engineWorkerAvailable(),
  });

  if (!hydrated || (enabled && transcript.isLoading)) return { kind: 'loading' };
  if (draft.status === 'blocked')
    return draft.missing
      ? { kind: 'no-bundle', agentId }
      : { kind: 'invalid-bundle', agentId, reason: draft.reason, checking: Boolean(draft.checking) };
  if (asked && 'cannot' in asked) return { kind: 'cannot', message: asked.cannot };
  if (!engineWorkerAvailable())
    return { kind: 'cannot', message: 'The reference engine cannot run in this browser (no Web Worker).' };
  if (query.error) return { kind: 'error', error: query.error };
  if (!query.data || !question) return { kind: 'loading' };
  const turn = transcript.turns.find((t) => t.id === interactionId);
  return {
    kind: 'ready',
    predicted: query.data,
    facts: {
      agentId,
      bundle: bundle ?? {},
      bundleHash,
      replayed: query.data.replayed,
      clock: question.clock,
      deployed: { decision: turn?.decision ?? '', reply: turn?.replyText ?? '' },
    },
  };
}
