/**
 * Query-key factory for every cached read (the Messaging API's, and what this browser keeps for a
 * server: local turns, bundles by hash, a share's bundle, the in-browser what-if), ordered general
 * → specific so that `invalidateQueries({queryKey: apiKeys.task(id)})` reaches a task's traces and
 * what-ifs, and `apiKeys.lineage()` every task's lineage (which a rerun anywhere in a family
 * changes). Everything lives under `apiKeys.all`, which the app resets when the connection
 * changes; no query is keyed outside it.
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
  /** Reference service: every task's lineage reads (its info, its branches). */
  lineage: () => [...apiKeys.all, 'lineage'] as const,
  /** Reference service: the task's lineage. */
  taskInfo: (taskId: string) => [...apiKeys.lineage(), taskId, 'info'] as const,
  /** Reference service: what the turns of one page of the task ran with. */
  turnRuns: (taskId: string, page: number, size: number) =>
    [...apiKeys.lineage(), taskId, 'runs', page, size] as const,
  /** Reference service: what the turns of the pages a view holds ran with. */
  heldRuns: (taskId: string, pages: readonly number[], size: number) =>
    [...apiKeys.lineage(), taskId, 'runs', 'held', pages, size] as const,
  taskBranches: (taskId: string) => [...apiKeys.lineage(), taskId, 'branches'] as const,
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
  /** This browser's record of a thread's turns (IndexedDB). */
  localTurns: (taskId: string) => [...apiKeys.all, 'local', 'turns', taskId] as const,
  /** A bundle by its hash: this browser's copy, else the server's. */
  bundleByHash: (hash: string) => [...apiKeys.all, 'bundle-by-hash', hash] as const,
  /** The bundle a shared thread ran with. */
  shareBundle: (
    taskId: string,
    hashes: readonly (string | null)[],
    agentId: string | undefined,
    versionId: string | undefined,
  ) => [...apiKeys.all, 'share', 'bundle', taskId, hashes, agentId ?? '', versionId ?? ''] as const,
  /** The bundle a what-if in the browser runs with (by where it comes from). */
  whatIfBundle: (source: string) => [...apiKeys.all, 'what-if-bundle', source] as const,
  /** A turn decided again in the browser with edits (`basis`: the predicted turn's bundle, or ''). */
  whatIfInBrowser: (taskId: string, interactionId: string, edits: readonly unknown[], basis = '') =>
    [...apiKeys.all, 'what-if-in-browser', taskId, interactionId, edits, basis] as const,
  /** A turn the reference engine did not run, predicted in the browser from its thread and a bundle. */
  whatIfPredicted: (taskId: string, interactionId: string, bundleHash: string, question: unknown) =>
    [...apiKeys.all, 'what-if-predicted', taskId, interactionId, bundleHash, question] as const,
};
