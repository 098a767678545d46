/**
 * Rerunning a turn into a branch: the request (include_trace=true), then everything the API does
 * not do for us. The bundle sent is kept by hash (hashed once: the caller passes the hash it
 * already knows), the lineage is recorded in this browser for servers that do not keep it and
 * every lineage read is refreshed, the branch joins the thread list running with exactly what its
 * rerun ran with (see branchRunConfig), and its regenerated turn is recorded as a local turn, as
 * a sent message is. A 422 about a draft puts the service's issues on the editor's markers.
 */
import type { QueryClient } from '@tanstack/react-query';
import { apiKeys } from '../../api/keys';
import { rerunMessage } from '../../api/rerun';
import type { RerunIn, RerunRequest } from '../../contract/api';
import { bundleHash } from '../../lib/bundle/hash';
import { rememberBundle } from '../bundles/bundle-archive';
import { useBundleDraftStore } from '../bundles/draft-store';
import { useConnectionStore } from '../connection/connection-store';
import { useLineageStore } from '../lineage/lineage-store';
import { branchRunConfig, runConfigOf } from '../threads/run-config';
import { useThreadsStore, type ThreadRecord } from '../threads/threads-store';
import { lineageRecordFor, type RerunTarget } from './lineage-record';
import { recordAnswer } from './record-answer';
import { putRefusalOnMarkers, type DraftSent } from './refusal';

export interface RerunTurnInput {
  target: RerunTarget;
  request: RerunRequest;
  /** The turn's number in its thread (1-based), for the branch's name. */
  turnNumber: number;
  /** The hash of `request.agent_settings_bundle` when the caller knows it (a draft's, from its check). */
  bundleHash?: string | undefined;
  /** For a draft: the editor's agent and exact text (a 422's issues are tied to that text). */
  draft?: DraftSent | undefined;
}

export interface RerunTurnDone {
  branchId: string;
  /** The regenerated turn's id in the branch. */
  turnId: string;
  rerun: RerunIn;
  rttMs: number;
}

export async function rerunTurn(queryClient: QueryClient, input: RerunTurnInput): Promise<RerunTurnDone> {
  const { target, request } = input;
  const threads = useThreadsStore.getState();
  // The acting user: the one the thread was started for, else the connection's.
  const userId =
    threads.threads.get(target.taskId)?.user_id || useConnectionStore.getState().userId.trim() || undefined;
  let answered: { rerun: RerunIn; rttMs: number };
  try {
    answered = await rerunMessage(request, { includeTrace: true, userId });
  } catch (error) {
    putRefusalOnMarkers(error, input.draft);
    throw error;
  }
  const { rerun, rttMs } = answered;
  const branchId = rerun.regenerated_task_id;
  const message = rerun.message;
  const sentBundle = request.agent_settings_bundle;
  const localHash = sentBundle ? (input.bundleHash ?? bundleHash(sentBundle)) : null;
  const hash = sentBundle ? (message.bundle_hash ?? localHash) : null;
  if (sentBundle && hash) {
    await rememberBundle(hash, sentBundle);
    if (localHash && localHash !== hash) await rememberBundle(localHash, sentBundle);
  }
  useLineageStore.getState().addRecord(lineageRecordFor(target, request, rerun, localHash));
  await queryClient.invalidateQueries({ queryKey: apiKeys.lineage() });

  const parent = useThreadsStore.getState().threads.get(target.taskId);
  const now = new Date().toISOString();
  useThreadsStore.getState().upsertThread({
    id: branchId,
    // The name given at the fork; a later message never renames it.
    title: `${parent?.title || 'Thread'} · rerun of turn ${input.turnNumber}`,
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
  await recordAnswer(queryClient, branchId, { userText: request.text, message, rttMs, bundleHash: hash });
  if (input.draft) useBundleDraftStore.getState().setServerIssues(null);
  return { branchId, turnId: message.id, rerun, rttMs };
}

function versionOf(
  answered: string | null | undefined,
  request: { version_id?: string | undefined; version_tag?: string | undefined },
  parent: Pick<ThreadRecord, 'version_id' | 'version_tag'> | undefined,
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
