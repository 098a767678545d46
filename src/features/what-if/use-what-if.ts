/**
 * The what-if of one turn, shared by everything that shows it (the graph's node editors, the
 * strip above the graph, the panel): the base of the turn (why not, the editable parameters, what
 * the engine decides it from) and the turn decided again with this turn's edits
 * (what-if-store.ts), in this browser's engine worker when it can run, else by the service. The
 * base is the reference service's answer for a turn it stored; on a service without the reference
 * helpers (a deployed service) it is the reference engine's prediction with the user's bundle
 * (use-prediction.ts), and says so. The queries are shared by key, so any number of views cost
 * one request and one decision.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useAgents } from '../../api/agents';
import { whatIfQueryOptions } from '../../api/what-if';
import type { WhatIfResponse } from '../../contract/what-if';
import { useDebouncedValue } from '../../components/ui/use-debounced-value';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { engineWorkerAvailable } from './engine-client';
import { usePrediction, type PredictionFacts, type PredictionState } from './use-prediction';
import { inBrowserQueryOptions, turnBundleQueryOptions, type Decided } from './what-if-queries';
import { editsToSend } from './what-if-model';
import { useTurnEdits } from './what-if-store';

/** Quiet time after the last keystroke before the turn is decided again. */
const DECIDE_AFTER_MS = 200;

/** Why a deployed service's turn has no prediction (no bundle, a turn that cannot be replayed). */
export type Unpredicted = Exclude<PredictionState, { kind: 'loading' | 'ready' | 'error' }>;

export interface WhatIfBase {
  isPending: boolean;
  error: unknown;
  /** The turn with no edits: why not, the editable parameters, the engine's input. */
  data: WhatIfResponse | undefined;
  /** Set when the turn is the reference engine's prediction with the user's bundle (a deployed service). */
  prediction: PredictionFacts | undefined;
  /** A deployed service's turn that is not predicted, and why. */
  unpredicted: Unpredicted | undefined;
}

/**
 * Whether the service keeps the state before its turns (the reference service, which lists its
 * agents), as the other reference-only features tell: undefined until known.
 */
function useServiceKeepsTurns(): boolean | undefined {
  const agents = useAgents(useKeyReady());
  if (agents.isSuccess) return agents.data !== null;
  // An error other than "not offered": the reference service's what-if says what it is.
  if (agents.isError) return true;
  return undefined;
}

/** The turn with no edits, from the service or predicted in this browser. */
export function useWhatIfBase(taskId: string, interactionId: string): WhatIfBase {
  const keeps = useServiceKeepsTurns();
  const service = useQuery({
    ...whatIfQueryOptions({ taskId, interactionId, edits: [], whyNot: true, engineInput: true }),
    enabled: keeps === true,
  });
  const predicted = usePrediction(taskId, interactionId, keeps === false);
  const none = { prediction: undefined, unpredicted: undefined, data: undefined, error: null };
  if (keeps === undefined) return { ...none, isPending: true };
  if (keeps) return { ...none, isPending: service.isPending, error: service.error, data: service.data };
  switch (predicted.kind) {
    case 'loading':
      return { ...none, isPending: true };
    case 'error':
      return { ...none, isPending: false, error: predicted.error };
    case 'ready':
      return {
        ...none,
        isPending: false,
        data: predicted.predicted.answer,
        prediction: predicted.facts,
      };
    case 'unknown-agent':
    case 'no-bundle':
    case 'invalid-bundle':
    case 'cannot':
      return { ...none, isPending: false, unpredicted: predicted };
  }
}

/** The turn decided again with its what-if's edits (`sent` empty: no what-if). */
export function useWhatIfDecided(taskId: string, interactionId: string) {
  const queryClient = useQueryClient();
  const base = useWhatIfBase(taskId, interactionId);
  const edits = useTurnEdits(taskId, interactionId);
  const order = useMemo(() => (base.data?.parameters ?? []).map((p) => p.code), [base.data]);
  const sent = useDebouncedValue(
    useMemo(() => editsToSend(edits, order), [edits, order]),
    DECIDE_AFTER_MS,
  );
  const edited = sent.length > 0;
  const prediction = base.prediction;
  // The bundle the turn ran with, for the engine in this browser (a prediction's is at hand).
  const source = base.data?.bundle_source;
  const stored = useQuery({
    ...turnBundleQueryOptions(queryClient, source),
    enabled: Boolean(source) && !prediction && engineWorkerAvailable(),
  });
  const bundle = prediction ? prediction.bundle : stored.data;
  const input = base.data?.engine_input;
  const inBrowser = Boolean(input && bundle) && engineWorkerAvailable();
  const local = useQuery({
    ...inBrowserQueryOptions({
      taskId,
      interactionId,
      edits: sent,
      source,
      bundle,
      input,
      recordedReply: base.data?.recorded.reply ?? '',
      basis: prediction?.bundleHash ?? '',
    }),
    enabled: edited && inBrowser,
  });
  // A worker that failed to start or crashed: the service decides from then on (only a service
  // that stored the turn can; a prediction has no service to fall back on).
  const useLocal = Boolean(prediction) || (inBrowser && !(local.isError && !engineWorkerAvailable()));
  // The service decides when the engine cannot run here (no worker, the bundle not at hand).
  const remote = useQuery({
    ...whatIfQueryOptions({ taskId, interactionId, edits: sent, whyNot: false }),
    enabled: edited && Boolean(base.data) && !useLocal && !stored.isFetching,
    select: (r): Decided => ({
      ...r.what_if,
      differences: r.differences,
      where: 'service',
    }),
  });
  const decided = useLocal ? local : remote;
  return {
    base,
    /** The edits the answer is for (debounced), in the order the parameters are listed. */
    sent,
    edited,
    /** The what-if's answer; undefined while deciding or with no edits. */
    result: edited ? decided.data : undefined,
    error: edited ? decided.error : null,
    /** The answer is for the edits shown (not an older one kept while deciding again). */
    settled: edited && Boolean(decided.data) && !decided.isPlaceholderData && !decided.isFetching,
  };
}
