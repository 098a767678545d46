/**
 * What if and why not on a service that does not keep the state before a turn (a deployed
 * service): the turn is predicted by the reference engine in this browser's worker, with the
 * user's bundle of the thread's agent (its draft in the Bundle tab, where an imported project or
 * bundle file also goes), by replaying the thread's earlier messages at the turn's clock (the
 * reply's time). The answer is the engine's prediction with that bundle, never the deployed
 * service's decision; the deployed service's decision of the turn is kept beside it, and so is,
 * for each earlier turn, whether the replay decided it as the deployed service did. The agent and
 * user come from this browser's record of the thread only, never from the connection's current
 * settings. Without that record, without a bundle, or for a turn that cannot be replayed, the
 * state says why.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDraftSendState } from '../../domain/bundles/active-bundle';
import { selectHydrated, useBundleDraftStore } from '../../domain/bundles/draft-store';
import { selectLoaded, selectThread, useThreadsStore } from '../../domain/threads/threads-store';
import { useTranscript } from '../../domain/transcript/use-transcript';
import { engineWorkerAvailable } from './engine-client';
import { messageSources, predictionQuestion, replayCheck } from './prediction-model';
import { predictedQueryOptions, type Predicted } from './what-if-queries';

/** What the prediction is of and with: said on screen beside it. */
export interface PredictionFacts {
  agentId: string;
  /** The bundle predicted with (the draft), for a why-not bundle change to apply to. */
  bundle: Record<string, unknown>;
  bundleHash: string;
  /** The bundle's own name for its agent, '' when it gives none. */
  bundleName: string;
  /** Earlier turns replayed. */
  replayed: number;
  clock: string;
  /** The deployed service's own decision and reply of the turn. */
  deployed: { decision: string; reply: string };
  /** Earlier turns the replay decided otherwise than the deployed service, and those it could not check. */
  replay: ReturnType<typeof replayCheck>;
  /** Where the replayed messages were read. */
  messages: ReturnType<typeof messageSources>;
  /** The bundle hash this browser sent the turn with (null: the agent's own; undefined: not recorded). */
  sentWith: string | null | undefined;
}

export type PredictionState =
  | { kind: 'loading' }
  /** This browser has no record of the thread's agent: nothing to choose a bundle by. */
  | { kind: 'unknown-agent' }
  /** No bundle of the thread's agent in this browser. */
  | { kind: 'no-bundle'; agentId: string }
  /** The draft cannot be run (invalid, still being checked). */
  | { kind: 'invalid-bundle'; agentId: string; reason: string; checking: boolean }
  /** The turn cannot be predicted: the reason in words. */
  | { kind: 'cannot'; message: string }
  | { kind: 'error'; error: unknown }
  | { kind: 'ready'; predicted: Predicted; facts: PredictionFacts };

/** The bundle's own name for its agent (`general_settings.name`), '' when it gives none. */
function nameOf(bundle: Record<string, unknown> | undefined): string {
  const settings = bundle?.general_settings;
  const name = settings && typeof settings === 'object' ? (settings as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name.trim() : '';
}

export function usePrediction(taskId: string, interactionId: string, enabled: boolean): PredictionState {
  const thread = useThreadsStore(selectThread(taskId));
  const threadsHydrated = useThreadsStore(selectLoaded);
  // Only this browser's record of the thread says which agent and user it ran as: the deployed
  // service does not, and the connection's current agent may be another one.
  const agentId = thread?.agent_id ?? '';
  const userId = thread?.user_id ?? '';
  const hydrated = useBundleDraftStore(selectHydrated);
  const draft = useDraftSendState(agentId);
  const transcript = useTranscript(enabled ? taskId : undefined);
  const bundleHash = agentId && draft.status === 'ready' ? draft.hash : '';
  const asked = useMemo(
    () =>
      bundleHash && userId
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

  if (!hydrated || !threadsHydrated || (enabled && transcript.isLoading)) return { kind: 'loading' };
  if (!agentId) return { kind: 'unknown-agent' };
  if (draft.status === 'blocked')
    return draft.missing
      ? { kind: 'no-bundle', agentId }
      : { kind: 'invalid-bundle', agentId, reason: draft.reason, checking: Boolean(draft.checking) };
  if (!userId)
    return {
      kind: 'cannot',
      message:
        'This browser’s record of the thread does not say which user it ran as, and the engine’s answers can depend on it, so no prediction is made.',
    };
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
      bundleName: nameOf(bundle),
      replayed: query.data.replayed,
      clock: question.clock,
      deployed: { decision: turn?.decision ?? '', reply: turn?.replyText ?? '' },
      replay: replayCheck(transcript.turns, query.data.earlierDecisions),
      messages: messageSources(transcript.turns, interactionId),
      sentWith: turn?.bundleHash,
    },
  };
}
