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
import { selectHydrated, useBundleDraftStore } from '../../domain/bundles/draft-store';
import type { Turn } from '../../domain/transcript/transcript';
import { ownValue } from '../../lib/own-records';
import { engineWorkerAvailable } from './engine-client';
import type { PredictionBasis } from './prediction-basis';
import { predictionQuestion, textFingerprint } from './prediction-model';
import { PredictionRefused, predictedQueryOptions, type Predicted } from './what-if-queries';

/** What the prediction is of and with: said on screen beside it. */
export interface PredictionFacts {
  agentId: string;
  /** The draft predicted with, for a why-not bundle change to apply to. */
  bundleText: string;
  /** Names that draft (the worker's key). */
  bundleKey: string;
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
  /** The turn cannot be predicted (the agent not known, a turn not replayable, the bundle not runnable). */
  | { kind: 'cannot'; message: string }
  | { kind: 'error'; error: unknown }
  | { kind: 'ready'; predicted: Predicted; facts: PredictionFacts };

export function usePrediction(
  taskId: string,
  interactionId: string,
  turns: readonly unknown[] | undefined,
  basis: PredictionBasis,
  enabled: boolean,
): PredictionState {
  const { agentId, userId } = basis;
  const hydrated = useBundleDraftStore(selectHydrated);
  const draftText = useBundleDraftStore((s) => (agentId ? ownValue(s.drafts, agentId) : undefined));
  const bundleKey = useMemo(() => (draftText === undefined ? '' : textFingerprint(draftText)), [draftText]);
  const thread = turns as readonly Turn[] | undefined;
  const asked = useMemo(
    () =>
      enabled && bundleKey && thread
        ? predictionQuestion(thread, interactionId, { taskId, agentId, bundleHash: bundleKey, userId })
        : undefined,
    [enabled, thread, interactionId, taskId, agentId, bundleKey, userId],
  );
  const question = asked && 'question' in asked ? asked.question : undefined;
  const query = useQuery({
    ...predictedQueryOptions(question, draftText),
    enabled: enabled && Boolean(question && draftText !== undefined) && engineWorkerAvailable(),
  });

  if (!hydrated) return { kind: 'loading' };
  if (!agentId)
    return {
      kind: 'cannot',
      message: 'This browser does not know the thread’s agent, so no bundle can be chosen.',
    };
  if (draftText === undefined) return { kind: 'no-bundle', agentId };
  if (!thread) return { kind: 'cannot', message: 'The thread’s messages are not at hand here.' };
  if (asked && 'cannot' in asked) return { kind: 'cannot', message: asked.cannot };
  if (!engineWorkerAvailable())
    return { kind: 'cannot', message: 'The reference engine cannot run in this browser (no Web Worker).' };
  if (query.error instanceof PredictionRefused) return { kind: 'cannot', message: query.error.message };
  if (query.error) return { kind: 'error', error: query.error };
  if (!query.data || !question) return { kind: 'loading' };
  const turn = thread.find((t) => t.id === interactionId);
  return {
    kind: 'ready',
    predicted: query.data,
    facts: {
      agentId,
      bundleText: draftText,
      bundleKey,
      replayed: query.data.replayed,
      clock: question.clock,
      deployed: { decision: turn?.decision ?? '', reply: turn?.replyText ?? '' },
    },
  };
}
