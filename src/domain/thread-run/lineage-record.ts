/** The turn a rerun replays, and the lineage record kept in this browser once the service answered (pure). */
import type { RerunIn, RerunRequest } from '../../contract/api';
import type { LineageRecord } from '../lineage/lineage';

export interface RerunTarget {
  taskId: string;
  interactionId: string;
  originalText: string;
  agentId?: string;
}

export function lineageRecordFor(
  target: RerunTarget,
  request: RerunRequest,
  answer: RerunIn,
  localBundleHash: string | null,
  now: Date = new Date(),
): LineageRecord {
  return {
    task_id: answer.regenerated_task_id,
    parent_task_id: target.taskId,
    parent_interaction_id: target.interactionId,
    edited_text: request.text,
    original_text: target.originalText,
    bundle_hash: request.agent_settings_bundle ? (answer.message.bundle_hash ?? localBundleHash) : null,
    version_id: request.version_id ?? null,
    version_tag: request.version_tag ?? null,
    created_at: now.toISOString(),
  };
}
