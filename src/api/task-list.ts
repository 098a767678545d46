/**
 * The reference service's thread list: `GET /reference/v1/tasks`, the tasks the key may see,
 * latest activity first, a page at a time (`next_cursor`), filtered by agent and by title text.
 * A server without it (a deployed service: 404/405) answers `null`.
 */
import { infiniteQueryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client';
import { apiKeys } from './keys';
import { orNull } from './turn-search';

const text = z.string().catch('');

export const TaskSummaryIn = z.looseObject({
  task_id: z.string(),
  agent_id: text,
  user_id: text,
  title: text,
  version_id: text,
  version_tag: z.string().nullish().catch(null),
  created_at: text,
  turn_count: z.number().int().catch(0),
  last_activity_at: text,
  parent: z.looseObject({ task_id: z.string(), interaction_id: z.string() }).nullish().catch(null),
});
export type TaskSummaryIn = z.infer<typeof TaskSummaryIn>;

const TaskListPageIn = z.looseObject({
  items: z.array(TaskSummaryIn),
  next_cursor: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
export type TaskListPageIn = z.infer<typeof TaskListPageIn>;

/** Tasks per page the list asks for. */
const TASK_LIST_PAGE = 100;

/** `agent`: one agent id or '' for every agent; `title`: text the title contains, or ''. */
export const taskListQueryOptions = (agent: string, title: string) =>
  infiniteQueryOptions({
    queryKey: apiKeys.taskList(agent, title),
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(TASK_LIST_PAGE) });
      if (agent) params.set('agent', agent);
      if (title) params.set('q', title);
      if (pageParam) params.set('cursor', pageParam);
      return orNull(
        apiRequest({
          path: `/reference/v1/tasks?${params.toString()}`,
          schema: TaskListPageIn,
          what: 'thread list',
          signal,
        }),
      );
    },
    getNextPageParam: (last) => last?.next_cursor ?? undefined,
    staleTime: 15_000,
    retry: false,
  });

/** A thread's length as the thread lists already read say (any filter), if one lists it. */
export function listedLength(client: QueryClient, taskId: string): number | undefined {
  const lists = client.getQueriesData<InfiniteData<TaskListPageIn | null>>({
    queryKey: [...apiKeys.all, 'task-list'],
  });
  for (const [, data] of lists)
    for (const page of data?.pages ?? [])
      for (const item of page?.items ?? []) if (item.task_id === taskId) return item.turn_count;
  return undefined;
}
