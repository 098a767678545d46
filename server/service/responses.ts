/** Store records → wire responses (spec names plus the wire-compat superset). Pure. */
import type { MessageResponse, TaskResponse } from '../../src/contract/api';
import type { TaskRecord, TurnRecord } from '../store/store';

export function taskResponse(task: TaskRecord): TaskResponse {
  return {
    id: task.id,
    task_id: task.id,
    user_id: task.userId,
    agent_id: task.agentId,
    title: task.title,
    welcome_message: task.welcomeMessage,
    followup_suggestions: task.suggestions,
    task_origin_type: task.origin,
    version_id: task.versionId,
    version_tag: task.versionTag,
    created_at: task.createdAt,
    reference_clock: task.clock,
  };
}

export function messageResponse(task: TaskRecord, turn: TurnRecord, includeTrace: boolean): MessageResponse {
  return {
    id: turn.interactionId,
    task_id: task.id,
    text: turn.reply.text,
    followup_suggestions: turn.reply.suggestions,
    ...(includeTrace ? { trace_info: turn.trace } : {}),
    created_at: turn.reply.createdAt,
    sender: { id: task.agentId, type: 'agent' },
    receiver: { id: task.userId, type: 'user' },
    cards: [],
    user_message: {
      id: turn.userMessage.id,
      text: turn.userMessage.text,
      created_at: turn.userMessage.createdAt,
    },
    bundle_hash: turn.bundleHash,
    version_id: turn.versionId,
  };
}
