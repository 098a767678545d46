/**
 * What a message carries besides its text: the open thread's configuration, never a browser-wide
 * switch. The bundle the thread runs with is looked up by its hash (this browser's copy, else the
 * server's); when neither holds it, nothing is sent and the user is told what to do.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SendMessageInput } from '../../api/send-message';
import { BundleBlockedError } from '../bundles/active-bundle';
import { bundleByHashQueryOptions } from '../bundles/bundle-archive';
import { shortBundleHash } from '../../lib/short-hash';
import { runConfigOf } from '../threads/run-config';
import { useThreadsStore } from '../threads/threads-store';

export type RunExtras = Partial<Omit<SendMessageInput, 'task_id' | 'text'>>;

export async function runExtrasFor(queryClient: QueryClient, taskId: string): Promise<RunExtras> {
  const thread = useThreadsStore.getState().threads.get(taskId);
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
