/**
 * Rerun from here: the request (include_trace=true), then everything the API does not do for us.
 * The branch joins the thread list running with exactly what its rerun ran with (bundle by hash,
 * version pin: see branchRunConfig), its regenerated turn is recorded locally (with the bundle
 * hash and version the chat shows), the lineage is recorded in this browser for servers that do
 * not keep it, and the bundle sent is kept by hash. A 422 about the draft puts the service's
 * issues on the editor's markers.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/errors';
import { lineageQueries } from '../../api/keys';
import { rerunMessage } from '../../api/rerun';
import type { RerunIn, RerunRequest } from '../../contract/api';
import { bundleHash } from '../../lib/bundle/hash';
import { useLineageStore } from '../../domain/lineage/lineage-store';
import { rememberBundle } from '../../domain/bundles/bundle-archive';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';
import { useConnectionStore } from '../../domain/connection/connection-store';
import { branchRunConfig, runConfigOf } from '../../domain/threads/run-config';
import { recordLocalTurn } from '../../domain/threads/local-turns';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { buildRerunRequest, lineageRecordFor, type RerunForm, type RerunTarget } from './build-request';

export interface RerunVars {
  /** The turn's number in its thread (1-based), for the branch's name. */
  turnNumber: number;
  form: RerunForm;
  bundle: Record<string, unknown> | null;
  /** For a draft: the editor's agent and exact text (a 422's issues are tied to that text). */
  draft?: { agentId: string; text: string };
}

export interface RerunDone {
  request: RerunRequest;
  rerun: RerunIn;
  rttMs: number;
}

export function useRerunFromHere(target: RerunTarget, onOpened: (taskId: string, turnId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['rerun', 'from-here', target.taskId, target.interactionId],
    mutationFn: async (vars: RerunVars): Promise<RerunDone> => {
      const request = buildRerunRequest(target, vars.form, vars.bundle);
      // The acting user: the one the thread was started for, else the connection's.
      const userId =
        useThreadsStore.getState().threads[target.taskId]?.user_id ||
        useConnectionStore.getState().userId.trim() ||
        undefined;
      const { rerun, rttMs } = await rerunMessage(request, { includeTrace: true, userId });
      return { request, rerun, rttMs };
    },
    onSuccess: async ({ request, rerun, rttMs }, vars) => {
      const branchId = rerun.regenerated_task_id;
      const message = rerun.message;
      const localHash = request.agent_settings_bundle ? bundleHash(request.agent_settings_bundle) : null;
      const hash = request.agent_settings_bundle ? (message.bundle_hash ?? localHash) : null;
      if (request.agent_settings_bundle && hash) {
        await rememberBundle(hash, request.agent_settings_bundle);
        if (localHash && localHash !== hash) await rememberBundle(localHash, request.agent_settings_bundle);
      }
      useLineageStore.getState().addRecord(lineageRecordFor(target, request, rerun, localHash));

      await queryClient.invalidateQueries(lineageQueries);

      const threads = useThreadsStore.getState();
      const parent = threads.threads[target.taskId];
      const now = new Date().toISOString();
      threads.upsertThread({
        id: branchId,
        // The name given at the fork; a later message never renames it.
        title: `${parent?.title || 'Thread'} · rerun of turn ${vars.turnNumber}`,
        agent_id: parent?.agent_id ?? target.agentId ?? '',
        created_at: now,
        updated_at: now,
        // The version the branch ran with: the server's word when it gives it, else the pin asked
        // for, else the parent's.
        ...versionOf(message.version_id, request, parent),
        runs_with: branchRunConfig(runConfigOf(parent), {
          bundle_hash: hash,
          version_id: request.version_id ?? null,
          version_tag: request.version_tag ?? null,
        }),
      });
      await recordLocalTurn(queryClient, branchId, {
        id: message.id,
        user_text: request.text,
        reply_text: message.text,
        suggestions: message.followup_suggestions,
        ...(message.trace_info?.decision ? { decision: message.trace_info.decision } : {}),
        created_at: message.created_at ?? now,
        rtt_ms: rttMs,
        bundle_hash: hash,
        ...(message.version_id ? { version_id: message.version_id } : {}),
        ...(message._unread ? { unread: message._unread } : {}),
      });
      if (vars.draft) useBundleDraftStore.getState().setServerIssues(null);
      onOpened(branchId, message.id);
    },
    onError: (error, vars) => {
      if (vars.draft && isApiError(error) && error.status === 422 && error.issues?.length) {
        useBundleDraftStore
          .getState()
          .setServerIssues({ agentId: vars.draft.agentId, text: vars.draft.text, issues: error.issues });
      }
    },
  });
}

function versionOf(
  answered: string | null | undefined,
  request: { version_id?: string | undefined; version_tag?: string | undefined },
  parent: { version_id?: string | undefined; version_tag?: string | undefined } | undefined,
): { version_id?: string; version_tag?: string } {
  if (answered) return { version_id: answered };
  if (request.version_id || request.version_tag) {
    return {
      ...(request.version_id ? { version_id: request.version_id } : {}),
      ...(request.version_tag ? { version_tag: request.version_tag } : {}),
    };
  }
  return {
    ...(parent?.version_id ? { version_id: parent.version_id } : {}),
    ...(parent?.version_tag ? { version_tag: parent.version_tag } : {}),
  };
}
