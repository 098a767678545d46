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

/** What the parent's trace list is known to be, for saying where a branch forked. */
export interface ParentTraces {
  loading: boolean;
  /** Why the list could not be read: the HTTP status (0: unreachable) and a short title. */
  error?: { status: number; title: string } | undefined;
}

/**
 * Where a branch forked, in words: the turn number when the parent's turns are known, else the
 * fork's interaction id and why the turn number is not known ("the key was refused").
 */
export function describeForkPoint(
  forkIndex: number | null,
  interactionId: string,
  parent: ParentTraces,
): string {
  if (forkIndex !== null) return `Forked at turn ${forkIndex + 1}`;
  const at = `Forked at interaction ${interactionId.slice(0, 8)}`;
  if (parent.error) {
    const why =
      parent.error.status === 401
        ? 'the key was refused'
        : parent.error.status === 403
          ? 'the key may not read the parent thread'
          : parent.error.status === 404
            ? 'the service does not know the parent thread'
            : `the parent’s turns could not be read (${parent.error.title})`;
    return `${at} (fork point unknown: ${why})`;
  }
  if (parent.loading) return `${at} (reading the parent’s turns…)`;
  return `${at} (fork point unknown: the parent has no turn with this id)`;
}
