/**
 * Branch lineage: the API answers a rerun with a new task id only, so the browser records where
 * each branch came from and builds the tree of a thread, its branches and branches of branches.
 *
 * Pure and framework-free. Robust to what a local record store accumulates over time: parents
 * never recorded (the original thread has no record of its own), duplicate records, and cycles
 * (from hand-edited or merged data): every task appears in a tree at most once.
 */

export interface LineageRecord {
  /** The branch (the rerun's `regenerated_task_id`). */
  task_id: string;
  /** The task the rerun started from. */
  parent_task_id: string;
  /** The interaction of the parent that was regenerated (the fork point). */
  parent_interaction_id: string;
  /** The text sent with the rerun. */
  edited_text: string;
  /** The text of the regenerated interaction in the parent. */
  original_text: string;
  /** Hash of the local bundle the rerun carried (`bundle_hash` of the reply), or null. */
  bundle_hash: string | null;
  version_id: string | null;
  version_tag: string | null;
  /** ISO-8601 time the branch was created. */
  created_at: string;
  /** Known only from a link's identifiers: the texts, bundle and version are not known here. */
  from_link?: boolean;
}

/** A branch as the reference service reports it (see api/lineage.ts). */
export interface ServerBranch {
  task_id: string;
  parent: { task_id: string; interaction_id: string; replaced_text: string; text: string };
  version_id: string | null;
  version_tag: string | null;
  bundle_hash: string | null;
  created_at: string;
}

/**
 * The service's branches as lineage records. A branch's version is named only when it differs
 * from its parent's (what changed tells branches apart); `rootVersion` is the original's.
 */
export function recordsFromServer(
  rootVersion: string | null,
  branches: readonly ServerBranch[],
): LineageRecord[] {
  const versionOf = new Map<string, string | null>();
  for (const b of branches) versionOf.set(b.task_id, b.version_id);
  return branches.map((b) => {
    const parentVersion = versionOf.has(b.parent.task_id) ? versionOf.get(b.parent.task_id)! : rootVersion;
    const changed = b.version_id !== parentVersion;
    return {
      task_id: b.task_id,
      parent_task_id: b.parent.task_id,
      parent_interaction_id: b.parent.interaction_id,
      edited_text: b.parent.text,
      original_text: b.parent.replaced_text,
      bundle_hash: b.bundle_hash,
      version_id: changed ? b.version_id : null,
      version_tag: changed ? b.version_tag : null,
      created_at: b.created_at,
    };
  });
}

/** A branch's origin from a link (ids only). */
export function recordFromLink(
  taskId: string,
  parent: { task_id: string; interaction_id: string },
): LineageRecord {
  return {
    task_id: taskId,
    parent_task_id: parent.task_id,
    parent_interaction_id: parent.interaction_id,
    edited_text: '',
    original_text: '',
    bundle_hash: null,
    version_id: null,
    version_tag: null,
    created_at: '',
    from_link: true,
  };
}

export interface BranchNode {
  task_id: string;
  /** How this task was made, or null for the root (a thread that is not a recorded branch). */
  record: LineageRecord | null;
  depth: number;
  children: BranchNode[];
}

/** True when the record changed the text (and not just the bundle or the pin). */
export function textChanged(r: LineageRecord): boolean {
  return r.edited_text !== r.original_text;
}

/** One record per task: the earliest (a rerun makes a task once; later duplicates are noise). */
export function indexRecords(records: readonly LineageRecord[]): Map<string, LineageRecord> {
  const byTask = new Map<string, LineageRecord>();
  for (const r of records) {
    if (!r.task_id) continue;
    const seen = byTask.get(r.task_id);
    if (!seen || compareRecords(r, seen) < 0) byTask.set(r.task_id, r);
  }
  return byTask;
}

function compareRecords(a: LineageRecord, b: LineageRecord): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0;
}

/**
 * The root of the family a task belongs to: follow parents until a task without a record.
 * On a cycle the root is the cycle's smallest task id, so every member finds the same root.
 */
export function rootOf(
  taskId: string,
  records: readonly LineageRecord[] | Map<string, LineageRecord>,
): string {
  const byTask = records instanceof Map ? records : indexRecords(records);
  const path: string[] = [];
  const seen = new Set<string>();
  let current = taskId;
  for (;;) {
    if (seen.has(current)) {
      const cycle = path.slice(path.indexOf(current));
      return cycle.reduce((min, id) => (id < min ? id : min));
    }
    seen.add(current);
    path.push(current);
    const rec = byTask.get(current);
    if (!rec || !rec.parent_task_id || rec.parent_task_id === current) return current;
    current = rec.parent_task_id;
  }
}

/**
 * The tree of the family `taskId` belongs to, rooted at its root (see rootOf). Children are
 * ordered by creation time. The root's own record (present when the root sits on a cycle) is
 * kept as data but its parent link is cut.
 */
export function buildBranchTree(taskId: string, records: readonly LineageRecord[]): BranchNode {
  const byTask = indexRecords(records);
  const rootId = rootOf(taskId, byTask);
  const children = new Map<string, LineageRecord[]>();
  for (const r of byTask.values()) {
    if (r.parent_task_id === r.task_id) continue;
    const list = children.get(r.parent_task_id) ?? [];
    list.push(r);
    children.set(r.parent_task_id, list);
  }
  for (const list of children.values()) list.sort(compareRecords);

  const placed = new Set<string>([rootId]);
  const build = (id: string, record: LineageRecord | null, depth: number): BranchNode => {
    const node: BranchNode = { task_id: id, record, depth, children: [] };
    for (const child of children.get(id) ?? []) {
      if (placed.has(child.task_id)) continue;
      placed.add(child.task_id);
      node.children.push(build(child.task_id, child, depth + 1));
    }
    return node;
  };
  return build(rootId, byTask.get(rootId) ?? null, 0);
}

/** Depth-first, pre-order list of the tree's nodes (the order a tree view shows them). */
export function flattenTree(root: BranchNode): BranchNode[] {
  const out: BranchNode[] = [];
  const walk = (n: BranchNode) => {
    out.push(n);
    n.children.forEach(walk);
  };
  walk(root);
  return out;
}

/** The chain of task ids from the root down to `taskId` (inclusive), or [] when not in the tree. */
export function pathTo(root: BranchNode, taskId: string): string[] {
  if (root.task_id === taskId) return [taskId];
  for (const child of root.children) {
    const sub = pathTo(child, taskId);
    if (sub.length) return [root.task_id, ...sub];
  }
  return [];
}
