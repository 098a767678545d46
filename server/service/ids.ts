import { randomFillSync } from 'node:crypto';

/** Random bytes drawn 4 KB at a time: one system call per 341 ids rather than one each. */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}

/** Random ids: a short kind prefix and 24 hex characters (`task_…`, `msg_…`). */
export function newId(kind: 'task' | 'message'): string {
  return `${kind === 'task' ? 'task' : 'msg'}_${randomHex(12)}`;
}
