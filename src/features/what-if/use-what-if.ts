/**
 * The what-if of one turn, shared by everything that shows it (the graph's node editors, the
 * strip above the graph, the panel): the service's answer about the turn (why not, the editable
 * parameters, what the engine decides it from), and the turn decided again with this turn's edits
 * (what-if-store.ts), in this browser's engine worker when it can run, else by the service. The
 * queries are shared by key, so any number of views cost one request and one decision.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { whatIfQueryOptions } from '../../api/what-if';
import { useDebouncedValue } from '../../components/ui/use-debounced-value';
import { engineWorkerAvailable } from './engine-client';
import { inBrowserQueryOptions, turnBundleQueryOptions, type Decided } from './what-if-queries';
import { editsToSend } from './what-if-model';
import { useTurnEdits } from './what-if-store';

/** Quiet time after the last keystroke before the turn is decided again. */
const DECIDE_AFTER_MS = 200;

/** The service's answer about the turn with no edits: why not, the editable parameters, the engine's input. */
export function useWhatIfBase(taskId: string, interactionId: string) {
  return useQuery(whatIfQueryOptions({ taskId, interactionId, edits: [], whyNot: true, engineInput: true }));
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
  // The bundle the turn ran with, for the engine in this browser.
  const source = base.data?.bundle_source;
  const bundle = useQuery({
    ...turnBundleQueryOptions(queryClient, source),
    enabled: Boolean(source) && engineWorkerAvailable(),
  });
  const input = base.data?.engine_input;
  const inBrowser = Boolean(input && bundle.data) && engineWorkerAvailable();
  const local = useQuery({
    ...inBrowserQueryOptions({
      taskId,
      interactionId,
      edits: sent,
      source,
      bundle: bundle.data,
      input,
      recordedReply: base.data?.recorded.reply ?? '',
    }),
    enabled: edited && inBrowser,
  });
  // A worker that failed to start or crashed: the service decides from then on.
  const useLocal = inBrowser && !(local.isError && !engineWorkerAvailable());
  // The service decides when the engine cannot run here (no worker, the bundle not at hand).
  const remote = useQuery({
    ...whatIfQueryOptions({ taskId, interactionId, edits: sent, whyNot: false }),
    enabled: edited && !useLocal && !bundle.isFetching,
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
