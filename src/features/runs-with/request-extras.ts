/**
 * What a message carries besides its text: the open thread's configuration, never a browser-wide
 * switch. The bundle the thread runs with is looked up by its hash (this browser's copy, else the
 * server's); when neither holds it, nothing is sent and the user is told what to do.
 */
import type { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/errors';
import type { SendMessageInput } from '../../api/send-message';
import { BundleBlockedError, draftSendState } from '../../domain/bundles/active-bundle';
import { bundleByHashQueryOptions } from '../../domain/bundles/bundle-archive';
import { shortBundleHash } from '../../lib/short-hash';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';
import { runConfigOf } from '../../domain/threads/run-config';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { ownValue } from '../../lib/own-records';

export type RunExtras = Partial<Omit<SendMessageInput, 'task_id' | 'text'>>;

export async function runExtrasFor(queryClient: QueryClient, taskId: string): Promise<RunExtras> {
  const thread = useThreadsStore.getState().threads[taskId];
  const config = runConfigOf(thread);
  const extras: RunExtras = {};
  if (config.version_id || config.version_tag) {
    extras.agent = {
      ...(config.version_id ? { version_id: config.version_id } : {}),
      ...(config.version_tag ? { version_tag: config.version_tag } : {}),
    };
  }
  if (config.bundle_hash) {
    const found = await queryClient.fetchQuery(bundleByHashQueryOptions(queryClient, config.bundle_hash));
    if (!found) {
      throw new BundleBlockedError(
        `This thread runs with bundle #${shortBundleHash(config.bundle_hash)}, which neither this browser nor the server holds.`,
        'Nothing was sent. Choose what this thread runs with beside the message box (the agent’s own bundle, or a draft).',
      );
    }
    extras.agent_settings_bundle = found.bundle;
  }
  return extras;
}

/**
 * A send the service refused with a 422 about the bundle: when the thread runs with its agent's
 * current draft, the issues go on the editor's markers (as a rerun's do).
 */
export function markSendIssues(taskId: string, error: unknown): void {
  if (!isApiError(error) || error.status !== 422 || !error.issues?.length) return;
  const thread = useThreadsStore.getState().threads[taskId];
  const hash = runConfigOf(thread).bundle_hash;
  if (!thread || !hash) return;
  const drafts = useBundleDraftStore.getState();
  const text = ownValue(drafts.drafts, thread.agent_id);
  const draft = draftSendState(thread.agent_id, text);
  if (text === undefined || draft.status !== 'ready' || draft.hash !== hash) return;
  drafts.setServerIssues({ agentId: thread.agent_id, text, issues: error.issues });
}
