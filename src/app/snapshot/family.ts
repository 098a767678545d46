/**
 * A shared document's family of threads (a thread and its branches) as the branch tree and the
 * comparison read it: the tree from the document's lineage, each thread's decisions from its
 * traces, each thread's turns for a comparison. Pure: nothing here reads the service.
 */
import { type TraceListState } from '../../features/branches';
import { buildBranchTree, flattenTree, type BranchNode } from '../../domain/lineage/lineage';
import { toCompareTurns, type CompareSide } from '../../features/compare';
import { plural } from '../../lib/format';
import { toChatTurns } from '../../features/share/build';
import type { ShareDocument, SharedThread } from '../../features/share/document';

/** The tree of the family `taskId` belongs to, or null when the document holds no branch of it. */
export function documentTree(doc: ShareDocument, taskId: string): BranchNode | null {
  const tree = buildBranchTree(taskId, doc.lineage);
  const held = new Set(doc.threads.map((t) => t.id));
  return flattenTree(tree).filter((n) => held.has(n.task_id)).length > 1 ? tree : null;
}

/** Each thread's trace list as the tree reads it: the decisions of its turns that carry a trace. */
export function documentTraceLists(doc: ShareDocument): Map<string, TraceListState> {
  return new Map(
    doc.threads.map((t): [string, TraceListState] => [
      t.id,
      {
        loading: false,
        data: t.turns.flatMap((turn) =>
          turn.trace
            ? [{ interaction_id: turn.trace.interaction_id || turn.id, decision: turn.trace.decision }]
            : [],
        ),
      },
    ]),
  );
}

export function threadTitle(thread: SharedThread | undefined, taskId: string): string {
  return thread?.title || `Thread ${taskId.slice(0, 8)}`;
}

/** One side of a comparison, from the document (undefined when the document does not hold the thread). */
export function documentCompareSide(doc: ShareDocument, taskId: string): CompareSide | undefined {
  const thread = doc.threads.find((t) => t.id === taskId);
  if (!thread) return undefined;
  return {
    title: threadTitle(thread, taskId),
    agentId: thread.agent_id || undefined,
    turns: toCompareTurns(toChatTurns(thread)),
  };
}

/** The tree's header words for a document. */
export function documentTreeStatus(tree: BranchNode): string {
  const n = flattenTree(tree).length - 1;
  return `${plural(n, 'branch', 'branches')} (as exported).`;
}
