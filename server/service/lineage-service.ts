/**
 * Lineage and bundles as the reference service keeps them (the `/reference/v1/tasks/...` and
 * `/reference/v1/bundles/...` endpoints): a task's origin and what each of its turns ran with, the
 * branches below a task, and the bundles clients sent, by content hash. Same access rules as the
 * Messaging API: 404 for an unknown task, 403 when the key may not use the task's agent.
 */
import type {
  BranchInfo,
  ForkInfo,
  StoredBundleResponse,
  TaskBranches,
  TaskInfo,
  TurnRunsPage,
} from '../../src/contract/api';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import type { Store, TaskRecord, TurnConfigRecord } from '../store/store';
import { AccessDeniedError, NotFoundError } from './errors';
import { pageCount, pageWindow } from './paging';

/** At most this many branches are listed below one task (the answer says when it stopped). */
const MAX_BRANCHES = 500;
/** Parents followed to find a family's root; deeper chains stop here (and cycles cannot loop). */
const MAX_DEPTH = 1000;

export class LineageService {
  constructor(private readonly store: Store) {}

  async taskInfo(key: ApiKey, taskId: string): Promise<TaskInfo> {
    const task = await this.accessibleTask(key, taskId);
    return {
      task_id: task.id,
      agent_id: task.agentId,
      title: task.title,
      version_id: task.versionId,
      version_tag: task.versionTag,
      created_at: task.createdAt,
      reference_clock: task.clock,
      root_task_id: await this.rootOf(task),
      parent: task.branchOf ? (await this.forkOf(task)).fork : null,
    };
  }

  /**
   * What the task's turns ran with, a page at a time (the pages of its trace list): a thread of
   * any length costs what one page costs.
   */
  async turnRuns(
    key: ApiKey,
    taskId: string,
    query: { page?: number; size?: number },
  ): Promise<TurnRunsPage> {
    const task = await this.accessibleTask(key, taskId);
    const { page, size, offset } = pageWindow(query.page, query.size);
    const length = await this.store.countTurns(task.id);
    const turns = await this.store.listTurnConfigs(task.id, { offset, limit: size });
    // A turn stored between the two reads is counted.
    const total = Math.max(length, offset + turns.length);
    return {
      items: turns.map((t) => ({
        interaction_id: t.interactionId,
        bundle_hash: t.bundleHash,
        version_id: t.versionId,
      })),
      total,
      page,
      size,
      pages: pageCount(total, size),
    };
  }

  /** Renames the task: a link's recipient sees the name its owner gave it. */
  async rename(key: ApiKey, taskId: string, title: string): Promise<{ task_id: string; title: string }> {
    const task = await this.accessibleTask(key, taskId);
    if (!(await this.store.renameTask(task.id, title))) throw new NotFoundError(`Task not found: ${taskId}`);
    return { task_id: task.id, title };
  }

  /** Every branch below the task, breadth first (parents before children), capped at MAX_BRANCHES. */
  async branches(key: ApiKey, taskId: string): Promise<TaskBranches> {
    const task = await this.accessibleTask(key, taskId);
    const out: BranchInfo[] = [];
    const queue: string[] = [task.id];
    const seen = new Set<string>([task.id]);
    let truncated = false;
    while (queue.length > 0 && !truncated) {
      const parentId = queue.shift()!;
      const children = await this.store.listBranches(parentId, MAX_BRANCHES - out.length + 1);
      for (const child of children) {
        if (seen.has(child.id)) continue;
        if (out.length >= MAX_BRANCHES) {
          truncated = true;
          break;
        }
        seen.add(child.id);
        const { fork, regenerated } = await this.forkOf(child);
        out.push({
          task_id: child.id,
          title: child.title,
          parent: fork,
          version_id: child.versionId,
          version_tag: child.versionTag,
          bundle_hash: regenerated?.bundleHash ?? null,
          created_at: child.createdAt,
        });
        queue.push(child.id);
      }
    }
    return { task_id: task.id, branches: out, truncated };
  }

  /**
   * A bundle a client sent, by its hash; only to a key that may use an agent it was sent to. For
   * any other key it does not exist (404, as for a hash never sent), so a guessed hash never tells
   * whether it ran on another agent.
   */
  async bundle(key: ApiKey, hash: string): Promise<StoredBundleResponse> {
    const copies = await this.store.getBundles(hash);
    const allowed = copies.find((b) => keyAllowsAgent(key, b.agentId));
    if (!allowed) throw new NotFoundError(`Bundle not found: ${hash}`);
    return {
      hash: allowed.hash,
      agent_id: allowed.agentId,
      bundle: JSON.parse(allowed.content) as Record<string, unknown>,
    };
  }

  private async accessibleTask(key: ApiKey, taskId: string): Promise<TaskRecord> {
    const task = await this.store.getTask(taskId);
    if (!task) throw new NotFoundError(`Task not found: ${taskId}`);
    if (!keyAllowsAgent(key, task.agentId)) throw new AccessDeniedError(task.agentId);
    return task;
  }

  private async rootOf(task: TaskRecord): Promise<string> {
    let current = task;
    const seen = new Set<string>([task.id]);
    for (let depth = 0; depth < MAX_DEPTH && current.branchOf; depth += 1) {
      const parent = await this.store.getTask(current.branchOf.taskId);
      if (!parent || seen.has(parent.id)) break;
      seen.add(parent.id);
      current = parent;
    }
    return current.id;
  }

  /**
   * The branch's origin: the regenerated interaction's position in the parent, the parent's text
   * there (replaced) and the branch's own text at that position (replayed); and the branch's turn
   * there. Three rows read, whatever the threads' lengths.
   */
  private async forkOf(
    branch: TaskRecord,
  ): Promise<{ fork: ForkInfo; regenerated: TurnConfigRecord | undefined }> {
    const origin = branch.branchOf!;
    const index = Math.max(0, (await this.store.turnPosition(origin.taskId, origin.interactionId)) ?? 0);
    const at = async (taskId: string) =>
      (await this.store.listTurnConfigs(taskId, { offset: index, limit: 1 }))[0];
    const replaced = await at(origin.taskId);
    const regenerated = await at(branch.id);
    return {
      fork: {
        task_id: origin.taskId,
        interaction_id: origin.interactionId,
        turn_index: index,
        replaced_text: replaced?.userText ?? '',
        text: regenerated?.userText ?? '',
      },
      regenerated,
    };
  }
}
