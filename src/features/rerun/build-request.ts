/**
 * The rerun dialog's form → the rerun request body. Pure; the dialog and its hook do the I/O.
 */
import type { RerunRequest } from '../../contract/api';
import type { RerunTarget } from '../../domain/thread-run/lineage-record';
import { messageTooLong } from '../../lib/message-limit';

/** 'thread' = the bundle the thread runs with (by hash); 'none' = the agent's own. */
export type BundleChoice = 'thread' | 'none' | 'baseline' | 'draft';

export interface RerunForm {
  text: string;
  bundleChoice: BundleChoice;
  versionId: string;
  versionTag: string;
}

export type { RerunTarget };

/**
 * The bundle a user most likely means to rerun with: the current draft when it is valid and
 * differs from what the thread runs with (they just edited it), else what the thread runs with.
 */
export function preferredBundleChoice(
  threadHash: string | null | undefined,
  draft: { status: 'ready'; hash: string } | { status: 'blocked' },
): BundleChoice {
  if (draft.status === 'ready' && draft.hash !== threadHash) return 'draft';
  return threadHash ? 'thread' : 'none';
}

/** Why the form cannot be submitted yet, in words; null when it can. */
export function formProblem(
  form: RerunForm,
  bundle: { status: 'ready' } | { status: 'blocked'; reason: string } | { status: 'loading' } | null,
): string | null {
  if (form.text.trim() === '') return 'Write the message to replay.';
  const tooLong = messageTooLong(form.text);
  if (tooLong) return tooLong;
  if (form.bundleChoice !== 'none') {
    if (!bundle || bundle.status === 'loading')
      return form.bundleChoice === 'baseline'
        ? 'The baseline bundle is still loading.'
        : form.bundleChoice === 'thread'
          ? 'The thread’s bundle is still loading.'
          : 'The draft is not ready.';
    if (bundle.status === 'blocked') return bundle.reason;
  }
  return null;
}

export function buildRerunRequest(
  target: RerunTarget,
  form: RerunForm,
  bundle: Record<string, unknown> | null,
): RerunRequest {
  const versionId = form.versionId.trim();
  const versionTag = form.versionTag.trim();
  return {
    task_id: target.taskId,
    interaction_id: target.interactionId,
    text: form.text.trim(),
    ...(target.agentId ? { agent_id: target.agentId } : {}),
    ...(versionId ? { version_id: versionId } : {}),
    ...(versionTag ? { version_tag: versionTag } : {}),
    ...(form.bundleChoice !== 'none' && bundle ? { agent_settings_bundle: bundle } : {}),
  };
}
