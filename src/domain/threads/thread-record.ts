/**
 * One thread of this browser's list, as kept in memory and stored (one IndexedDB record per
 * thread). Other features may attach their own fields: records are merged, unknown fields kept.
 */
import type { RunConfig } from './run-config';

export interface ThreadRecord {
  id: string;
  title: string;
  agent_id: string;
  created_at: string;
  updated_at?: string;
  user_id?: string;
  welcome_message?: string | null;
  /** Starter suggestions from task creation. */
  suggestions?: string[];
  /** The version the task was created with (the server's answer, else the pin asked for). */
  version_id?: string;
  version_tag?: string;
  /** What the thread's next messages are sent with; absent = the agent's own bundle. */
  runs_with?: RunConfig;
  [extra: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

/**
 * The record stored under `key`, or undefined when it is not one (damaged, or written by
 * something else): an object whose `id` is its key, with a title, an agent and a creation time.
 */
export function readThreadRecord(key: unknown, value: unknown): ThreadRecord | undefined {
  if (typeof key !== 'string' || !isObject(value) || value.id !== key) return undefined;
  if (typeof value.title !== 'string' || typeof value.agent_id !== 'string') return undefined;
  if (typeof value.created_at !== 'string' || !optionalString(value.updated_at)) return undefined;
  if (value.runs_with !== undefined && !isObject(value.runs_with)) return undefined;
  return value as ThreadRecord;
}
