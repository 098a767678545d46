/**
 * Every HTTP route declared with its request and response schemas from the shared contract.
 * These declarations drive both request validation and the generated `/openapi.json`.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  AgentBundleResponse,
  AgentList,
  CreateTaskRequest,
  ErrorBody,
  IncludeTraceQuery,
  MessageResponse,
  RerunRequest,
  RerunResponse,
  SendMessageRequest,
  StoredBundleResponse,
  TaskBranches,
  TaskListPage,
  TaskListQuery,
  TaskInfo,
  TurnRunsPage,
  TaskResponse,
  TraceListQuery,
  TracePage,
  TurnFacets,
  TurnFacetsQuery,
  TurnSearchPage,
  TurnSearchQuery,
  ValidateRequest,
  ValidateResponse,
} from '../../src/contract/api';
import { Trace } from '../../src/contract/trace';

const PathId = z.string().min(1).max(200);
const security: Record<string, string[]>[] = [{ ServiceApiKey: [] }, { AuiApiKey: [] }];

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

const COMMON_ERRORS = {
  401: error('Missing or invalid API key.'),
  422: error('Invalid request: `detail` lists each problem as {loc, msg, type}.'),
};
const BODY_ERRORS = {
  413: error('Request body over the size limit.'),
  415: error('Request body is not JSON.'),
};

export const createTaskRoute = createRoute({
  method: 'post',
  path: '/v1/messaging/tasks',
  tags: ['Messaging'],
  summary: 'Create a task (conversation thread)',
  security,
  request: { body: jsonBody(CreateTaskRequest) },
  responses: {
    200: json(TaskResponse, 'The new task with its welcome message and starter suggestions.'),
    403: error('The key may not use this agent.'),
    ...COMMON_ERRORS,
    ...BODY_ERRORS,
  },
});

export const sendMessageRoute = createRoute({
  method: 'post',
  path: '/v1/messaging/messages',
  tags: ['Messaging'],
  summary: 'Send a message in a task',
  security,
  request: { query: IncludeTraceQuery, body: jsonBody(SendMessageRequest) },
  responses: {
    200: json(MessageResponse, "The agent's reply; `trace_info` when include_trace=true."),
    403: error("The key may not use this task's agent."),
    404: error('Task not found.'),
    ...COMMON_ERRORS,
    ...BODY_ERRORS,
  },
});

export const rerunRoute = createRoute({
  method: 'post',
  path: '/v1/messaging/messages/rerun',
  tags: ['Messaging'],
  summary: 'Rerun an interaction into a new branch task',
  security,
  request: { query: IncludeTraceQuery, body: jsonBody(RerunRequest) },
  responses: {
    200: json(RerunResponse, 'The branch task id and the regenerated reply.'),
    403: error("The key may not use this task's agent."),
    404: error('Task or interaction not found.'),
    ...COMMON_ERRORS,
    ...BODY_ERRORS,
  },
});

export const listTracesRoute = createRoute({
  method: 'get',
  path: '/v1/messaging/tasks/{task_id}/trace-info',
  tags: ['Traces'],
  summary: 'All traces of a task, in thread order',
  description:
    'A bare array by default; the page envelope {items, total, page, size, pages} when `page` or `size` is given; a one-element array when `interaction_id` is given.',
  security,
  request: { params: z.object({ task_id: PathId }), query: TraceListQuery },
  responses: {
    200: json(z.union([z.array(Trace), TracePage]), 'The traces.'),
    403: error("The key may not use this task's agent."),
    404: error('Task or interaction not found.'),
    ...COMMON_ERRORS,
  },
});

export const getTraceRoute = createRoute({
  method: 'get',
  path: '/v1/messaging/tasks/{task_id}/interactions/{interaction_id}/trace-info',
  tags: ['Traces'],
  summary: 'The trace of one interaction',
  security,
  request: { params: z.object({ task_id: PathId, interaction_id: PathId }) },
  responses: {
    200: json(Trace, 'The trace.'),
    403: error("The key may not use this task's agent."),
    404: error('Task or interaction not found.'),
    ...COMMON_ERRORS,
  },
});

export const listAgentsRoute = createRoute({
  method: 'get',
  path: '/reference/v1/agents',
  tags: ['Reference'],
  summary: 'The agents this key may use (examples, folder and created agents), with their versions',
  security,
  responses: { 200: json(AgentList, 'The agents.'), 401: COMMON_ERRORS[401] },
});

export const agentBundleRoute = createRoute({
  method: 'get',
  path: '/reference/v1/agents/{agent_id}/bundle',
  tags: ['Reference'],
  summary: "An agent version's bundle (the editor's baseline)",
  security,
  request: {
    params: z.object({ agent_id: PathId }),
    query: z.object({
      version: PathId.optional().describe('Version id or tag; the active version when omitted.'),
      version_id: PathId.optional().describe('Version id (as on create task).'),
      version_tag: PathId.optional().describe('Version tag (as on create task).'),
    }),
  },
  responses: {
    200: json(AgentBundleResponse, 'The bundle.'),
    403: error('The key may not use this agent.'),
    404: error('Agent or version not found.'),
    ...COMMON_ERRORS,
  },
});

export const listTasksRoute = createRoute({
  method: 'get',
  path: '/reference/v1/tasks',
  tags: ['Reference'],
  summary: 'The tasks (threads) the key may see, latest activity first',
  description:
    'Each with its agent, title, length, last activity and origin when it is a rerun branch. Filter by `agent` (any of them; naming an agent the key may not use is refused, 403) and by text of the title (`q`). A task moves to the top when it gets a turn; follow `next_cursor` for less recent tasks.',
  security,
  request: { query: TaskListQuery },
  responses: {
    200: json(TaskListPage, 'A page of tasks, latest activity first.'),
    403: error('The key may not use an agent the list names.'),
    ...COMMON_ERRORS,
  },
});

export const taskInfoRoute = createRoute({
  method: 'get',
  path: '/reference/v1/tasks/{task_id}',
  tags: ['Reference'],
  summary: "A task's lineage and what each turn ran with",
  description:
    "The agent, version, the family root, the origin of a branch (parent task, regenerated interaction, its position, the text it replaced and the text replayed) and, per turn, the bundle hash (null = the agent's own bundle) and version it ran with.",
  security,
  request: { params: z.object({ task_id: PathId }) },
  responses: {
    200: json(TaskInfo, 'The task.'),
    403: error("The key may not use this task's agent."),
    404: error('Task not found.'),
    ...COMMON_ERRORS,
  },
});

/** A thread's name: what the people sharing it call it (not part of the Messaging API). */
const RenameTaskRequest = z.strictObject({
  title: z.string().trim().min(1, 'A title cannot be empty.').max(200, 'A title has at most 200 characters.'),
});

export const renameTaskRoute = createRoute({
  method: 'put',
  path: '/reference/v1/tasks/{task_id}/title',
  tags: ['Reference'],
  summary: "Renames a task (the thread's name everyone with access sees)",
  description: 'The title is trimmed; 1 to 200 characters.',
  security,
  request: { params: z.object({ task_id: PathId }), body: jsonBody(RenameTaskRequest) },
  responses: {
    200: json(z.object({ task_id: z.string(), title: z.string() }), 'The task as renamed.'),
    403: error("The key may not use this task's agent."),
    404: error('Task not found.'),
    ...COMMON_ERRORS,
    ...BODY_ERRORS,
  },
});

export const turnRunsRoute = createRoute({
  method: 'get',
  path: '/reference/v1/tasks/{task_id}/runs',
  tags: ['Reference'],
  summary: "What a task's turns ran with, a page at a time",
  description:
    "Per turn, in thread order: the bundle hash (null = the agent's own bundle) and version it ran with. Paged as the trace list is (`page` from 1, `size` up to 1,000, default 50), position for position.",
  security,
  request: {
    params: z.object({ task_id: PathId }),
    query: TraceListQuery.pick({ page: true, size: true }),
  },
  responses: {
    200: json(TurnRunsPage, 'A page of the turns.'),
    403: error("The key may not use this task's agent."),
    404: error('Task not found.'),
    ...COMMON_ERRORS,
  },
});

export const taskBranchesRoute = createRoute({
  method: 'get',
  path: '/reference/v1/tasks/{task_id}/branches',
  tags: ['Reference'],
  summary: 'Every branch regenerated below a task',
  description: 'Branches of branches included, parents first, each with its origin; at most 500.',
  security,
  request: { params: z.object({ task_id: PathId }) },
  responses: {
    200: json(TaskBranches, 'The branches.'),
    403: error("The key may not use this task's agent."),
    404: error('Task not found.'),
    ...COMMON_ERRORS,
  },
});

export const storedBundleRoute = createRoute({
  method: 'get',
  path: '/reference/v1/bundles/{hash}',
  tags: ['Reference'],
  summary: 'A bundle a client sent, by its content hash',
  description:
    'Answered only to a key that may use an agent the bundle was sent to; for any other key it is not found (404), as a hash never sent.',
  security,
  request: { params: z.object({ hash: PathId }) },
  responses: {
    200: json(StoredBundleResponse, 'The bundle.'),
    404: error('No bundle with this hash was sent here to an agent the key may use.'),
    ...COMMON_ERRORS,
  },
});

export const validateRoute = createRoute({
  method: 'post',
  path: '/reference/v1/validate',
  tags: ['Reference'],
  summary: 'Validate a bundle without running it',
  security,
  request: { body: jsonBody(ValidateRequest) },
  responses: {
    200: json(ValidateResponse, '`valid` is false when any issue is an error.'),
    ...COMMON_ERRORS,
    ...BODY_ERRORS,
  },
});

export const bundleSchemaRoute = createRoute({
  method: 'get',
  path: '/reference/v1/schemas/bundle.json',
  tags: ['Reference'],
  summary: 'JSON Schema of the agent settings bundle',
  security,
  responses: { 200: json(z.record(z.string(), z.unknown()), 'The JSON Schema.'), 401: COMMON_ERRORS[401] },
});

const HealthBody = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** Which database this instance uses, and whether it answered just now. */
  store: z.object({ kind: z.enum(['sqlite', 'postgres']), reachable: z.boolean() }),
  /** Stored values found damaged (not valid JSON) since the service started, and the latest. */
  damaged_values: z.object({
    count: z.number().int(),
    last: z.object({ what: z.string(), at: z.string() }).nullable(),
  }),
});

export const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  tags: ['Service'],
  summary: 'Health of the service and its database (no key needed)',
  responses: {
    200: json(HealthBody, 'The service is up and its database answers.'),
    503: json(HealthBody, 'The service is up but its database does not answer.'),
  },
});

const SEARCH_DESCRIPTION =
  'Within a filter the values are alternatives (any of them); across filters every one must hold. Only turns of agents the key may use are searched; naming another agent is refused (403).';

export const searchTurnsRoute = createRoute({
  method: 'get',
  path: '/reference/v1/turns',
  tags: ['Reference'],
  summary: 'Search every stored turn by rule, result, tool, decision, intent, value and text',
  description: `${SEARCH_DESCRIPTION} Newest first; follow \`next_cursor\` for older turns.`,
  security,
  request: { query: TurnSearchQuery },
  responses: {
    200: json(TurnSearchPage, 'A page of matching turns, newest first.'),
    403: error('The key may not use an agent the search names.'),
    ...COMMON_ERRORS,
  },
});

export const turnFacetsRoute = createRoute({
  method: 'get',
  path: '/reference/v1/turns/facets',
  tags: ['Reference'],
  summary: 'Counts over the matching turns: per decision, intent, rule and result, tool, and day',
  description: SEARCH_DESCRIPTION,
  security,
  request: { query: TurnFacetsQuery },
  responses: {
    200: json(TurnFacets, 'The counts.'),
    403: error('The key may not use an agent the search names.'),
    ...COMMON_ERRORS,
  },
});
