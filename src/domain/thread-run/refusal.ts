/**
 * A refusal's issues on the bundle editor's markers: when the service refuses a draft with a 422
 * that lists the bundle's issues, they are shown on that draft's text (a send's and a rerun's
 * alike).
 */
import { isApiError } from '../../api/errors';
import { draftSendState } from '../bundles/active-bundle';
import { useBundleDraftStore } from '../bundles/draft-store';
import { runConfigOf } from '../threads/run-config';
import { useThreadsStore } from '../threads/threads-store';
import { ownValue } from '../../lib/own-records';

/** A draft as it was sent: its agent and exact text (the issues are tied to that text). */
export interface DraftSent {
  agentId: string;
  text: string;
}

/** Puts a 422's bundle issues on the markers of the draft that was sent; true when it did. */
export function putRefusalOnMarkers(error: unknown, draft: DraftSent | undefined): boolean {
  if (!draft || !isApiError(error) || error.status !== 422 || !error.issues?.length) return false;
  useBundleDraftStore
    .getState()
    .setServerIssues({ agentId: draft.agentId, text: draft.text, issues: error.issues });
  return true;
}

/** The draft a thread's message carries: its agent's current draft when the thread runs with it. */
export function draftThreadRunsWith(taskId: string): DraftSent | undefined {
  const thread = useThreadsStore.getState().threads.get(taskId);
  const hash = runConfigOf(thread).bundle_hash;
  if (!thread || !hash) return undefined;
  const text = ownValue(useBundleDraftStore.getState().drafts, thread.agent_id);
  if (text === undefined) return undefined;
  const draft = draftSendState(thread.agent_id, text);
  return draft.status === 'ready' && draft.hash === hash ? { agentId: thread.agent_id, text } : undefined;
}
