import { randomBytes } from 'node:crypto';

/** Random ids: a short kind prefix and 24 hex characters (`task_…`, `msg_…`). */
export function newId(kind: 'task' | 'message'): string {
  return `${kind === 'task' ? 'task' : 'msg'}_${randomBytes(12).toString('hex')}`;
}
