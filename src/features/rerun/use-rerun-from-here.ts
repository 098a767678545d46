/**
 * Rerun from here, as the dialog drives it: the form turned into the request, then the thread-run
 * unit's `rerunTurn` (the branch, its recorded turn, the lineage, a refusal's issues on the
 * editor's markers), then the branch opened.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DraftSent } from '../../domain/thread-run/refusal';
import { loadThreadRun } from '../../domain/thread-run/load';
import { buildRerunRequest, type RerunForm, type RerunTarget } from './build-request';

export interface RerunVars {
  /** The turn's number in its thread (1-based), for the branch's name. */
  turnNumber: number;
  form: RerunForm;
  bundle: Record<string, unknown> | null;
  /** The bundle's hash when already known (a draft's): it is not hashed again. */
  bundleHash?: string | undefined;
  /** For a draft: the editor's agent and exact text (a 422's issues are tied to that text). */
  draft?: DraftSent;
}

export function useRerunFromHere(target: RerunTarget, onOpened: (taskId: string, turnId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['rerun', 'from-here', target.taskId, target.interactionId],
    mutationFn: async (vars: RerunVars) =>
      (await loadThreadRun()).rerunTurn(queryClient, {
        target,
        request: buildRerunRequest(target, vars.form, vars.bundle),
        turnNumber: vars.turnNumber,
        bundleHash: vars.bundleHash,
        draft: vars.draft,
      }),
    onSuccess: ({ branchId, turnId }) => onOpened(branchId, turnId),
  });
}
