/** Store records → wire responses (spec names plus the wire-compat superset). Pure. */
import type { MessageResponse, TaskResponse } from '../../src/contract/api';
import type { ComputedTurn, TaskRecord } from '../store/store';

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

/** The answer to a send as JSON text; the trace, when included, is spliced in as the JSON text it is stored as. */
export function messageJson(task: TaskRecord, turn: ComputedTurn, includeTrace: boolean): string {
  const message = JSON.stringify(messageResponse(task, turn));
  return includeTrace ? `${message.slice(0, -1)},"trace_info":${turn.traceJson}}` : message;
}

function messageResponse(task: TaskRecord, turn: ComputedTurn): Omit<MessageResponse, 'trace_info'> {
  return {
    id: turn.interactionId,
    task_id: task.id,
    text: turn.reply.text,
    followup_suggestions: turn.reply.suggestions,
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
