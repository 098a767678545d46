/**
 * The reference service's lineage and bundles: `GET /reference/v1/tasks/{id}` (origin, family
 * root), `GET /reference/v1/tasks/{id}/runs` (what each turn ran with, paged as the trace list),
 * `GET /reference/v1/tasks/{id}/branches` (every branch below) and
 * `GET /reference/v1/bundles/{hash}`. A server that does not keep them (a deployed service:
 * 404/405, or a task it does not know, as behind `--upstream`) answers `null`, and the app falls
 * back to what this browser and the link know.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client';
import { isApiError } from './errors';
import { apiKeys } from './keys';

const ForkIn = z.looseObject({
  task_id: z.string(),
  interaction_id: z.string(),
  turn_index: z.number().int().nonnegative().catch(0),
  replaced_text: z.string().catch(''),
  text: z.string().catch(''),
});
export type ForkIn = z.infer<typeof ForkIn>;

const TurnRunIn = z.looseObject({
  interaction_id: z.string(),
  bundle_hash: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  version_id: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
export type TurnRunIn = z.infer<typeof TurnRunIn>;

export const TaskInfoIn = z.looseObject({
  task_id: z.string(),
  agent_id: z.string(),
  title: z.string().catch(''),
  version_id: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  version_tag: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  created_at: z.string().catch(''),
  /** The task's clock; absent from servers that do not say. */
  reference_clock: z.string().optional().catch(undefined),
  root_task_id: z.string(),
  parent: ForkIn.nullish().transform((v) => v ?? null),
});
export type TaskInfoIn = z.infer<typeof TaskInfoIn>;

const TurnRunsPageIn = z.looseObject({ items: z.array(TurnRunIn) });

const BranchIn = z.looseObject({
  task_id: z.string(),
  title: z.string().catch(''),
  parent: ForkIn,
  version_id: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  version_tag: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  bundle_hash: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  created_at: z.string().catch(''),
});
type BranchIn = z.infer<typeof BranchIn>;
const TaskBranchesIn = z.looseObject({
  task_id: z.string(),
  branches: z.array(BranchIn),
  truncated: z.boolean().catch(false),
});
export type TaskBranchesIn = z.infer<typeof TaskBranchesIn>;

const StoredBundleIn = z.looseObject({
  hash: z.string(),
  agent_id: z.string(),
  bundle: z.record(z.string(), z.unknown()),
});
export type StoredBundleIn = z.infer<typeof StoredBundleIn>;

/** Not kept by this server: no such endpoint, or no such task or bundle here. */
function notKept(e: unknown): boolean {
  return isApiError(e) && (e.status === 404 || e.status === 405 || e.kind === 'parse');
}

async function orNull<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (e) {
    if (notKept(e)) return null;
    throw e;
  }
}

export const taskInfoQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: apiKeys.taskInfo(taskId),
    queryFn: ({ signal }) =>
      orNull(
        apiRequest({
          path: `/reference/v1/tasks/${encodeURIComponent(taskId)}`,
          schema: TaskInfoIn,
          what: 'task lineage',
          signal,
        }),
      ),
    staleTime: 30_000,
  });

/**
 * Keeps a thread's new name on the reference service, so a link's recipient sees it. Only for a
 * task the service keeps (its task info answered); resolves false when the name was not kept.
 */
export async function renameTaskOnServer(taskId: string, title: string): Promise<boolean> {
  try {
    await apiRequest({
      path: `/reference/v1/tasks/${encodeURIComponent(taskId)}/title`,
      method: 'PUT',
      body: { title },
      schema: z.looseObject({ title: z.string() }),
      what: 'thread name',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * What the turns of page `page` (from 1) of a thread in pages of `size` ran with: the trace list's
 * page of the same number and size, position for position (null from a server that does not keep it).
 */
export const turnRunsQueryOptions = (taskId: string, page: number, size: number) =>
  queryOptions({
    queryKey: apiKeys.turnRuns(taskId, page, size),
    queryFn: async ({ signal }) => {
      const runs = await orNull(
        apiRequest({
          path: `/reference/v1/tasks/${encodeURIComponent(taskId)}/runs`,
          query: { page, size },
          schema: TurnRunsPageIn,
          what: 'turn runs',
          signal,
        }),
      );
      return runs && runs.items;
    },
    staleTime: 30_000,
  });

/**
 * What the turns of pages `pages` (from 1) of a thread in pages of `size` ran with, each page
 * read (and cached) on its own; while other pages are read, the pages read before are kept.
 */
export const heldRunsQueryOptions = (taskId: string, pages: readonly number[], size: number) =>
  queryOptions({
    queryKey: apiKeys.heldRuns(taskId, pages, size),
    queryFn: ({ client }) =>
      Promise.all(pages.map((page) => client.fetchQuery(turnRunsQueryOptions(taskId, page, size)))),
    staleTime: 30_000,
    // (Runs are matched to turns by interaction id: kept pages of another thread match none.)
    placeholderData: (previous) => previous,
  });

export const taskBranchesQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: apiKeys.taskBranches(taskId),
    queryFn: ({ signal }) =>
      orNull(
        apiRequest({
          path: `/reference/v1/tasks/${encodeURIComponent(taskId)}/branches`,
          schema: TaskBranchesIn,
          what: 'branch list',
          signal,
        }),
      ),
    staleTime: 30_000,
  });

export const storedBundleQueryOptions = (hash: string) =>
  queryOptions({
    queryKey: apiKeys.storedBundle(hash),
    queryFn: ({ signal }) =>
      orNull(
        apiRequest({
          path: `/reference/v1/bundles/${encodeURIComponent(hash)}`,
          schema: StoredBundleIn,
          what: 'bundle',
          signal,
        }),
      ),
    // Content-addressed: a hash's bundle never changes.
    staleTime: Infinity,
  });
