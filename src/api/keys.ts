/**
 * Query-key factory for every Messaging API read, ordered general → specific so that
 * `invalidateQueries({queryKey: apiKeys.task(id)})` reaches everything about one task.
 * Everything lives under `apiKeys.all`, which the app resets when the connection changes.
 */
export const apiKeys = {
  all: ['api'] as const,
  agents: () => [...apiKeys.all, 'agents'] as const,
  agentBundle: (agentId: string, versionId?: string) =>
    [...apiKeys.agents(), agentId, 'bundle', versionId ?? 'active'] as const,
  /** Reference service: what a draft (by hash) changes in the saved cases (the request's cases). */
  impact: (agentId: string, draftHash: string, cases: readonly unknown[]) =>
    [...apiKeys.agents(), agentId, 'impact', draftHash, cases] as const,
  tasks: () => [...apiKeys.all, 'tasks'] as const,
  task: (taskId: string) => [...apiKeys.tasks(), taskId] as const,
  traces: (taskId: string) => [...apiKeys.task(taskId), 'traces'] as const,
  trace: (taskId: string, interactionId: string) =>
    [...apiKeys.task(taskId), 'trace', interactionId] as const,
  /** Reference service: the task's lineage and what each turn ran with. */
  taskInfo: (taskId: string) => [...apiKeys.task(taskId), 'info'] as const,
  taskBranches: (taskId: string) => [...apiKeys.task(taskId), 'branches'] as const,
  /** Reference service: a turn decided again with edits (and its why-not list when asked). */
  whatIf: (
    taskId: string,
    interactionId: string,
    edits: readonly unknown[],
    whyNot: boolean,
    input: boolean,
  ) => [...apiKeys.task(taskId), 'what-if', interactionId, edits, whyNot, input] as const,
  storedBundle: (hash: string) => [...apiKeys.all, 'bundles', hash] as const,
  /** Reference service: turns matching a search (its query string), and their counts. */
  turnSearch: (find: string) => [...apiKeys.all, 'turns', find] as const,
  /** Reference service: the tasks the key may see (the thread list), by agent and title. */
  taskList: (agent: string, title: string) => [...apiKeys.all, 'task-list', agent, title] as const,
  turnFacets: (find: string) => [...apiKeys.all, 'turns', find, 'facets'] as const,
};
