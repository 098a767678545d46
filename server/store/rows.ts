/**
 * Tasks and turns as table rows, shared by the SQLite and PostgreSQL stores: the same columns in
 * both schemas, lists and engine states as JSON text, the trace as the JSON text it is answered with.
 */
import { parseStored } from './damaged-values';
import type { EngineState } from '../../engine/contract';
import type { NewTurn, TaskRecord, TurnRecord } from './store';

export interface TaskRow {
  id: string;
  agent_id: string;
  user_id: string;
  origin: string;
  title: string;
  welcome_message: string | null;
  suggestions: string;
  version_id: string;
  version_tag: string | null;
  clock: string;
  initial_state: string;
  branch_of_task_id: string | null;
  branch_of_interaction_id: string | null;
  created_at: string;
}

export interface TurnRow {
  task_id: string;
  seq: number;
  interaction_id: string;
  user_message_id: string;
  user_text: string;
  user_created_at: string;
  reply_text: string;
  reply_suggestions: string;
  reply_created_at: string;
  trace: string;
  state: string;
  bundle_hash: string | null;
  version_id: string;
}

export function taskToRow(t: TaskRecord): TaskRow {
  return {
    id: t.id,
    agent_id: t.agentId,
    user_id: t.userId,
    origin: t.origin,
    title: t.title,
    welcome_message: t.welcomeMessage,
    suggestions: JSON.stringify(t.suggestions),
    version_id: t.versionId,
    version_tag: t.versionTag,
    clock: t.clock,
    initial_state: JSON.stringify(t.initialState),
    branch_of_task_id: t.branchOf?.taskId ?? null,
    branch_of_interaction_id: t.branchOf?.interactionId ?? null,
    created_at: t.createdAt,
  };
}

export function rowToTask(r: TaskRow): TaskRecord {
  return {
    id: r.id,
    agentId: r.agent_id,
    userId: r.user_id,
    origin: r.origin,
    title: r.title,
    welcomeMessage: r.welcome_message,
    suggestions: parseStored<string[]>(r.suggestions, `suggestions of task ${r.id}`),
    versionId: r.version_id,
    versionTag: r.version_tag,
    clock: r.clock,
    initialState: parseStored<EngineState>(r.initial_state, `initial state of task ${r.id}`),
    branchOf:
      r.branch_of_task_id && r.branch_of_interaction_id
        ? { taskId: r.branch_of_task_id, interactionId: r.branch_of_interaction_id }
        : null,
    createdAt: r.created_at,
  };
}

export function turnToRow(t: NewTurn, seq: number): TurnRow {
  return {
    task_id: t.taskId,
    seq,
    interaction_id: t.interactionId,
    user_message_id: t.userMessage.id,
    user_text: t.userMessage.text,
    user_created_at: t.userMessage.createdAt,
    reply_text: t.reply.text,
    reply_suggestions: JSON.stringify(t.reply.suggestions),
    reply_created_at: t.reply.createdAt,
    trace: 'traceJson' in t ? t.traceJson : JSON.stringify(t.trace),
    state: JSON.stringify(t.state),
    bundle_hash: t.bundleHash,
    version_id: t.versionId,
  };
}

export function rowToTurn(r: TurnRow): TurnRecord {
  return {
    taskId: r.task_id,
    interactionId: r.interaction_id,
    userMessage: { id: r.user_message_id, text: r.user_text, createdAt: r.user_created_at },
    reply: {
      text: r.reply_text,
      suggestions: parseStored<string[]>(
        r.reply_suggestions,
        `reply suggestions of interaction ${r.interaction_id} of task ${r.task_id}`,
      ),
      createdAt: r.reply_created_at,
    },
    trace: parseStored<TurnRecord['trace']>(
      r.trace,
      `trace of interaction ${r.interaction_id} of task ${r.task_id}`,
    ),
    state: parseStored<EngineState>(r.state, `state of interaction ${r.interaction_id} of task ${r.task_id}`),
    bundleHash: r.bundle_hash,
    versionId: r.version_id,
  };
}

/** A stored turn for the turn index: one whose JSON cannot be read keeps its texts and ids alone. */
export function storedTurn(r: TurnRow): TurnRecord {
  try {
    return rowToTurn(r);
  } catch {
    return rowToTurn({ ...r, trace: '{}', state: '{}', reply_suggestions: '[]' });
  }
}

export const TASK_COLUMNS =
  'id, agent_id, user_id, origin, title, welcome_message, suggestions, version_id, version_tag, clock, initial_state, branch_of_task_id, branch_of_interaction_id, created_at';
export const TURN_COLUMNS =
  'task_id, seq, interaction_id, user_message_id, user_text, user_created_at, reply_text, reply_suggestions, reply_created_at, trace, state, bundle_hash, version_id';

/** `a, b` → `table.a, table.b`: a column list qualified by its table, for joins. */
export const prefixed = (columns: string, table: string): string =>
  columns
    .split(', ')
    .map((c) => `${table}.${c}`)
    .join(', ');
