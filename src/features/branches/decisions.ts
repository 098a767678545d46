/**
 * The decisions along each branch of a tree: a branch holds its parent's turns before the fork
 * (copied by the service), so its own decisions start at the fork point. Pure.
 */
import type { BranchNode } from './lineage';

export interface TraceLike {
  interaction_id: string;
  decision: string;
}

/**
 * For every node of the tree, the decisions of its own turns: all of them for the root, those
 * from the fork point on for a branch (the fork's index in the parent; unknown fork = all).
 */
export function decisionsAlong(
  root: BranchNode,
  tracesByTask: ReadonlyMap<string, readonly TraceLike[] | undefined>,
): Map<string, { forkIndex: number | null; decisions: string[] }> {
  const out = new Map<string, { forkIndex: number | null; decisions: string[] }>();
  const walk = (node: BranchNode, parent: BranchNode | null) => {
    const traces = tracesByTask.get(node.task_id) ?? [];
    let forkIndex: number | null = null;
    if (parent && node.record) {
      const parentTraces = tracesByTask.get(parent.task_id);
      const at =
        parentTraces?.findIndex((t) => t.interaction_id === node.record!.parent_interaction_id) ?? -1;
      if (at >= 0) forkIndex = at;
    }
    out.set(node.task_id, { forkIndex, decisions: traces.slice(forkIndex ?? 0).map((t) => t.decision) });
    node.children.forEach((c) => walk(c, node));
  };
  walk(root, null);
  return out;
}
