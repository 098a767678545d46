/**
 * The turn index entry of a turn being stored at thread position `seq` of a task of `task`'s
 * agent and user: built from its trace, or, for a turn computed off the request loop, the entry
 * computed beside it (the same `turnIndexEntry`), given the task, position, owner and time the
 * store stores it with.
 */
import type { NewTurn } from './store';
import { term } from './turn-terms';
import { turnIndexEntry, type TurnIndexEntry } from '../../engine/turn-index-entry';

export function indexEntryAt(
  task: { agentId: string; userId: string },
  turn: NewTurn,
  seq: number,
): TurnIndexEntry {
  if (!('indexEntry' in turn)) return turnIndexEntry(task, turn, seq, term);
  return {
    ...turn.indexEntry,
    taskId: turn.taskId,
    seq,
    agentId: task.agentId,
    userId: task.userId,
    createdAt: turn.reply.createdAt,
  };
}
