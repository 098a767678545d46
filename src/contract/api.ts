/**
 * Messaging API v1 wire contract (spec + wire-compat names).
 *
 * Request schemas are what the reference service accepts (it validates with them). Response
 * schemas come in two kinds: the exact shape the reference service emits (used for its OpenAPI
 * document and its tests) and a tolerant shape the client parses any server's answer with
 * (deployed-service variants, missing optional fields, unknown fields kept).
 */
import { z } from 'zod';
import { FieldReader, isRecord, without, type Bag, type UnreadField } from './tolerant';
import { readTrace, Trace, type TolerantTrace } from './trace';

export const ORIGINS_SEEN = ['web-widget', 'api', 'third-party', 'cli', 'stores'] as const;
export const API_KEY_HEADERS = ['x-service-api-key', 'x-aui-api-key'] as const;

const Id = z.string().min(1).max(200);

/**
 * An ISO-8601 date-time with offset whose instant falls in the years 0000 to 9999 UTC: what the
 * service can store and answer back in the same form (`9999-12-31T23:59:59-23:59` is in 10000).
 */
export const ClockDateTime = z.iso.datetime({ offset: true }).refine(
  (v) => {
    const t = Date.parse(v);
    return Number.isFinite(t) && /^\d{4}-/.test(new Date(t).toISOString());
  },
  { message: 'The date-time must fall within the years 0000 to 9999 in UTC' },
);
const Bundleish = z
  .record(z.string(), z.unknown())
  .describe(
    'Agent settings bundle (see docs/bundle/README.md in the repository); validated before execution.',
  );

// ---------------------------------------------------------------- requests

export const CreateTaskRequest = z.looseObject({
  agent_id: Id.describe('The agent management ID.'),
  user_id: Id.describe('Identifier of the user starting the conversation.'),
  task_origin_type: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Origin of the conversation; default web-widget.'),
  version_id: Id.optional().describe('Pin the thread to a draft version.'),
  version_tag: Id.optional().describe('Pin the thread to a revision tag, e.g. v2.'),
  reference_clock: ClockDateTime.optional().describe(
    "Reference service only: the task's clock (ISO-8601 date-time) instead of its creation time, so that date-dependent turns replay exactly. Other services ignore it.",
  ),
});
export type CreateTaskRequest = z.infer<typeof CreateTaskRequest>;

/** The longest message the Messaging API accepts, in characters (UTF-16 code units, as zod counts). */
export const MESSAGE_MAX_CHARS = 20_000;

export const SendMessageRequest = z.looseObject({
  type: z.literal('message').describe('Must be the literal "message".'),
  task_id: Id,
  text: z.string().min(1).max(MESSAGE_MAX_CHARS).describe("The user's message."),
  agent_settings_bundle: Bundleish.optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  agent_variables: z.record(z.string(), z.unknown()).optional(),
  selected_tools: z
    .array(z.looseObject({ tool: z.string(), input: z.unknown().optional(), order: z.number().optional() }))
    .optional(),
  agent: z
    .looseObject({ version_id: Id.optional(), version_tag: Id.optional(), agent_id: Id.optional() })
    .optional()
    .describe('Pins this one message to a version.'),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

export const RerunRequest = z.looseObject({
  task_id: Id.describe('The original task.'),
  interaction_id: Id.describe('The message to regenerate.'),
  text: z
    .string()
    .min(1)
    .max(MESSAGE_MAX_CHARS)
    .describe('The message to replay: the original or an edited text.'),
  agent_id: Id.optional(),
  version_id: Id.optional(),
  version_tag: Id.optional(),
  agent_settings_bundle: Bundleish.optional(),
});
export type RerunRequest = z.infer<typeof RerunRequest>;

export const IncludeTraceQuery = z.object({
  include_trace: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .describe('When true the response carries trace_info.'),
});

export const TraceListQuery = z.object({
  interaction_id: Id.optional().describe("Select one interaction's trace (a one-element array)."),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe('Page number, from 1; answers a page envelope.'),
  size: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('Page size (default 50); answers a page envelope.'),
});

// ---------------------------------------------------------------- responses (as emitted)

export const Participant = z.object({ id: z.string(), type: z.enum(['user', 'agent']) });

export const TaskResponse = z.object({
  id: z.string(),
  task_id: z.string(),
  user_id: z.string(),
  agent_id: z.string(),
  title: z.string(),
  welcome_message: z.string().nullable(),
  followup_suggestions: z.array(z.string()).nullable(),
  task_origin_type: z.string(),
  version_id: z.string(),
  version_tag: z.string().nullable(),
  created_at: z.string(),
  reference_clock: z
    .string()
    .optional()
    .describe("Reference service only: the task's clock, which every turn's dates are computed against."),
});
export type TaskResponse = z.infer<typeof TaskResponse>;

export const MessageResponse = z.object({
  id: z.string(),
  task_id: z.string(),
  text: z.string(),
  followup_suggestions: z.array(z.string()),
  trace_info: Trace.optional(),
  created_at: z.string(),
  sender: Participant,
  receiver: Participant,
  cards: z.array(z.unknown()),
  user_message: z.object({ id: z.string(), text: z.string(), created_at: z.string() }),
  bundle_hash: z.string().nullable(),
  version_id: z.string(),
});
export type MessageResponse = z.infer<typeof MessageResponse>;

export const RerunResponse = z.object({
  regenerated_task_id: z.string(),
  message: MessageResponse,
});
export type RerunResponse = z.infer<typeof RerunResponse>;

/** A page of a thread's list (`page` from 1, of `size` items; `total` items in `pages` pages). */
const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
    pages: z.number().int(),
  });

export const TracePage = pageOf(Trace);

export const BundleIssue = z.object({
  code: z.string(),
  message: z.string(),
  loc: z.array(z.union([z.string(), z.number()])),
  severity: z.enum(['error', 'warning']),
});
export type BundleIssue = z.infer<typeof BundleIssue>;

export const ErrorDetail = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});

export const ErrorBody = z.object({
  error: z.string(),
  message: z.string(),
  detail: z.array(ErrorDetail).optional(),
  issues: z.array(BundleIssue).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

// ---------------------------------------------------------------- reference-only extensions

export const AgentVersion = z.object({
  id: z.string(),
  tag: z.string().nullable(),
  description: z.string(),
});
export const AgentSource = z
  .enum(['example', 'folder', 'created'])
  .describe(
    'Where the agent comes from: shipped with Threadline, loaded from a project folder (--agents), or created through the API (kept in the store; the only kind that has a draft and can be published and activated here).',
  );
export const AgentSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  active_version: z.string(),
  versions: z.array(AgentVersion),
  source: AgentSource.optional(),
});
export type AgentSummary = z.infer<typeof AgentSummary>;
export const AgentList = z.object({ agents: z.array(AgentSummary) });
export const AgentBundleResponse = z.object({
  agent_id: z.string(),
  version_id: z.string(),
  version_tag: z.string().nullable(),
  bundle: z.record(z.string(), z.unknown()),
});
/** What one turn ran with: the local bundle's hash (null = the agent's own) and the version. */
export const TurnRunInfo = z.object({
  interaction_id: z.string(),
  bundle_hash: z.string().nullable(),
  version_id: z.string(),
});
export type TurnRunInfo = z.infer<typeof TurnRunInfo>;
/** Where a branch came from: the task and interaction regenerated, the text it replaced and the text replayed. */
export const ForkInfo = z.object({
  task_id: z.string(),
  interaction_id: z.string(),
  /** 0-based position of the regenerated interaction in the thread. */
  turn_index: z.number().int().nonnegative(),
  replaced_text: z.string(),
  text: z.string(),
});
export type ForkInfo = z.infer<typeof ForkInfo>;
export const TaskInfo = z.object({
  task_id: z.string(),
  agent_id: z.string(),
  title: z.string(),
  version_id: z.string(),
  version_tag: z.string().nullable(),
  created_at: z.string(),
  /** The task's clock: every turn's dates are computed against it (a branch keeps its parent's). */
  reference_clock: z.string(),
  /** The original thread of this task's family (itself when it is no branch). */
  root_task_id: z.string(),
  parent: ForkInfo.nullable(),
});
export type TaskInfo = z.infer<typeof TaskInfo>;
/** A page of what a task's turns ran with, in thread order: the trace list's pages, position for position. */
export const TurnRunsPage = pageOf(TurnRunInfo);
export type TurnRunsPage = z.infer<typeof TurnRunsPage>;
export const BranchInfo = z.object({
  task_id: z.string(),
  title: z.string(),
  parent: ForkInfo,
  version_id: z.string(),
  version_tag: z.string().nullable(),
  /** The local bundle the regenerated turn ran with, or null for the agent's own. */
  bundle_hash: z.string().nullable(),
  created_at: z.string(),
});
export type BranchInfo = z.infer<typeof BranchInfo>;
export const TaskBranches = z.object({
  task_id: z.string(),
  /** Every branch below the task (branches of branches too), parents before children. */
  branches: z.array(BranchInfo),
  /** True when the list stopped at the service's limit. */
  truncated: z.boolean(),
});
export type TaskBranches = z.infer<typeof TaskBranches>;
export const StoredBundleResponse = z.object({
  hash: z.string(),
  agent_id: z.string(),
  bundle: z.record(z.string(), z.unknown()),
});
export type StoredBundleResponse = z.infer<typeof StoredBundleResponse>;

/** The filters of a turn search (`GET /reference/v1/turns` and `/turns/facets`); each may repeat. */
const filter = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(description);
export const TurnSearchFilters = {
  agent: filter('Agent ids (comma-separated or repeated: any of them).'),
  rule: filter('`RULE_ID` (any result) or `RULE_ID:result`, e.g. `DISPUTE_WINDOW:blocked`.'),
  tool: filter('`TOOL` (considered or invoked) or `TOOL:invoked`.'),
  decision: filter('Decisions, e.g. `block_with_explanation`.'),
  intent: filter('Intents, e.g. `dispute_charge`.'),
  param: filter(
    'Parameter or entity values: `code` (has a value), `code=value`, `code>n`, `code<n` (numbers, or dates as 2025-03-01). Repeat for alternatives.',
  ),
  version: filter('Version ids the turn ran with.'),
  bundle: filter('Hashes of the client bundle the turn ran with.'),
  task: filter('Task (thread) ids.'),
  user: filter('User ids.'),
  q: z.string().optional().describe('Words that must all appear in the message or the reply.'),
  from: z.string().optional().describe('Turns at or after this date or date-time (UTC).'),
  to: z.string().optional().describe('Turns before this date-time, or up to the end of this date.'),
};
export const TurnSearchQuery = z.object({
  ...TurnSearchFilters,
  cursor: z.string().optional().describe('`next_cursor` of the previous page.'),
  limit: z.string().optional().describe('Turns per page, 1 to 200 (default 50).'),
});
export const TurnFacetsQuery = z.object(TurnSearchFilters);

export const TurnHit = z.object({
  task_id: z.string(),
  interaction_id: z.string(),
  /** The turn's position in its thread, from 1. */
  turn: z.number(),
  agent_id: z.string(),
  version_id: z.string(),
  bundle_hash: z.string().nullable(),
  user_id: z.string(),
  created_at: z.string(),
  intent: z.string(),
  decision: z.string(),
  /** The rule the decision names first, or null. */
  deciding_rule: z.string().nullable(),
  /** The start of the user's message and of the reply (300 characters). */
  message: z.string(),
  reply: z.string(),
});
export type TurnHit = z.infer<typeof TurnHit>;
export const TurnSearchPage = z.object({
  items: z.array(TurnHit),
  /**
   * Pass as `cursor` for the next (older) page; null on the last page. Each request reads a
   * bounded part of the store, so a page may hold fewer turns (even none) while a cursor follows.
   */
  next_cursor: z.string().nullable(),
});
export type TurnSearchPage = z.infer<typeof TurnSearchPage>;
const Counted = z.object({ value: z.string(), count: z.number() });
export const TurnFacets = z.object({
  /** Matching turns counted: every one when `complete`, else the newest (the counts cover them). */
  total: z.number(),
  complete: z.boolean(),
  /** When the oldest counted turn was given (null when none matched). */
  since: z.string().nullable(),
  decisions: z.array(Counted),
  intents: z.array(Counted),
  rules: z.array(z.object({ rule_id: z.string(), result: z.string(), count: z.number() })),
  tools: z.array(z.object({ tool: z.string(), considered: z.number(), invoked: z.number() })),
  /** Matching turns per day (UTC), oldest first. */
  days: z.array(z.object({ day: z.string(), count: z.number() })),
});
export type TurnFacets = z.infer<typeof TurnFacets>;

/** The thread list (`GET /reference/v1/tasks`): the tasks a key may see, latest activity first. */
export const TaskListQuery = z.object({
  agent: filter('Agent ids (comma-separated or repeated: any of them).'),
  q: z.string().optional().describe('Text the title contains (case-insensitive for ASCII letters).'),
  cursor: z.string().optional().describe('`next_cursor` of the previous page.'),
  limit: z.string().optional().describe('Tasks per page, 1 to 500 (default 100).'),
});
export const TaskSummary = z.object({
  task_id: z.string(),
  agent_id: z.string(),
  user_id: z.string(),
  title: z.string(),
  version_id: z.string(),
  version_tag: z.string().nullable(),
  created_at: z.string(),
  /** The thread's length, the turns a branch inherits included. */
  turn_count: z.number(),
  /** The last reply's time, or the task's creation time when it has no turn yet. */
  last_activity_at: z.string(),
  /** For a rerun branch: the task and interaction it was regenerated from; null otherwise. */
  parent: z.object({ task_id: z.string(), interaction_id: z.string() }).nullable(),
});
export type TaskSummary = z.infer<typeof TaskSummary>;
export const TaskListPage = z.object({
  items: z.array(TaskSummary),
  /**
   * Pass as `cursor` for the next (less recent) page; null on the last page. A page may hold fewer
   * tasks (even none) while a cursor follows. A task that gets a turn moves to the top: it is not
   * repeated in later pages, and shows first when the list is read again.
   */
  next_cursor: z.string().nullable(),
});
export type TaskListPage = z.infer<typeof TaskListPage>;

export const ValidateRequest = z.object({ agent_settings_bundle: z.unknown() });
export const ValidateResponse = z.object({ valid: z.boolean(), issues: z.array(BundleIssue) });

// ---------------------------------------------------------------- tolerant client parsing
// Each answer is read field by field (see tolerant.ts): only what the client strictly needs
// fails the answer (a task's id, a rerun's new task id, a message that is not an object).

/** Fails the parse with `message` (the answer is unusable without it). */
function refuse(ctx: z.core.$RefinementCtx, input: unknown, message: string): never {
  ctx.addIssue({ code: 'custom', message, input });
  return z.NEVER;
}

export interface TaskIn {
  /** The task id (`id` on the deployed service, `task_id` in the spec; either is accepted). */
  id: string;
  task_id?: string;
  user_id?: string;
  title?: string;
  welcome_message?: string;
  followup_suggestions: string[];
  /** The version the task runs with (reference service; absent elsewhere). */
  version_id?: string;
  _unread?: UnreadField[];
  [key: string]: unknown;
}

const TASK_FIELDS = [
  'id',
  'task_id',
  'user_id',
  'title',
  'welcome_message',
  'followup_suggestions',
  'version_id',
];

/** Any server's task: `id` or `task_id`; every other field degrades on its own. */
export const TaskIn = z.unknown().transform((raw, ctx): TaskIn => {
  if (!isRecord(raw)) return refuse(ctx, raw, 'the task is not an object');
  const r = new FieldReader();
  const taskId = r.text(raw.task_id, 'task_id');
  const id = r.text(raw.id, 'id') || taskId;
  if (!id) return refuse(ctx, raw, 'the task has neither id nor task_id');
  const opt = <K extends string>(key: K, v: string | undefined) => (v === undefined ? {} : { [key]: v });
  return {
    ...without(raw, TASK_FIELDS),
    id,
    ...opt('task_id', taskId),
    ...opt('user_id', r.text(raw.user_id, 'user_id')),
    ...opt('title', r.text(raw.title, 'title')),
    ...opt('welcome_message', r.text(raw.welcome_message, 'welcome_message')),
    followup_suggestions: r.suggestions(raw.followup_suggestions, 'followup_suggestions'),
    ...opt('version_id', r.text(raw.version_id, 'version_id')),
    ...r.result(),
  };
});

export interface MessageIn {
  /** The message id = interaction id; '' when the service sent none (marked in `_unread`). */
  id: string;
  /** The reply: always present; a non-text value arrives here as its JSON (marked). */
  text: string;
  followup_suggestions: string[];
  trace_info?: TolerantTrace;
  created_at?: string;
  /** The hash of the local bundle the turn ran with, null for none (reference service). */
  bundle_hash?: string | null;
  /** The agent version the turn ran with (reference service; absent elsewhere). */
  version_id?: string;
  /** Message fields that arrived in another shape (the trace's own are in `trace_info._unread`). */
  _unread?: UnreadField[];
  [key: string]: unknown;
}

const MESSAGE_FIELDS = [
  'id',
  'text',
  'followup_suggestions',
  'trace_info',
  'created_at',
  'bundle_hash',
  'version_id',
];

export function readMessage(raw: Bag): MessageIn {
  const r = new FieldReader();
  const traceRaw = raw.trace_info;
  const trace = traceRaw === null || traceRaw === undefined ? undefined : r.record(traceRaw, 'trace_info');
  const trace_info = trace ? readTrace(trace) : undefined;
  const id = r.text(raw.id, 'id');
  if (id === undefined && (raw.id === null || raw.id === undefined)) r.mark('id', raw.id);
  let text = r.text(raw.text, 'text');
  if (text === undefined && raw.text !== null && raw.text !== undefined) text = JSON.stringify(raw.text);
  const created_at = r.text(raw.created_at, 'created_at');
  const version_id = r.text(raw.version_id, 'version_id');
  const bundle_hash = raw.bundle_hash === null ? null : r.text(raw.bundle_hash, 'bundle_hash');
  return {
    ...without(raw, MESSAGE_FIELDS),
    id: id || trace_info?.interaction_id || '',
    text: text ?? '',
    followup_suggestions: r.suggestions(raw.followup_suggestions, 'followup_suggestions'),
    ...(trace_info ? { trace_info } : {}),
    ...(created_at === undefined ? {} : { created_at }),
    ...(bundle_hash === undefined ? {} : { bundle_hash }),
    ...(version_id === undefined ? {} : { version_id }),
    ...r.result(),
  };
}

/** Any server's send-message answer: only "an object" is required; the reply is always kept. */
export const MessageIn = z
  .unknown()
  .transform((raw, ctx): MessageIn =>
    isRecord(raw) ? readMessage(raw) : refuse(ctx, raw, 'the reply is not an object'),
  );

export interface RerunIn {
  regenerated_task_id: string;
  message: MessageIn;
  [key: string]: unknown;
}

export const RerunIn = z.unknown().transform((raw, ctx): RerunIn => {
  if (!isRecord(raw)) return refuse(ctx, raw, 'the rerun result is not an object');
  const id = raw.regenerated_task_id;
  if (typeof id !== 'string' || !id)
    return refuse(ctx, id, 'regenerated_task_id: the new task id is missing');
  const message = raw.message;
  if (!isRecord(message)) return refuse(ctx, message, 'message: the regenerated reply is not an object');
  return { ...raw, regenerated_task_id: id, message: readMessage(message) };
});

export interface TraceListIn {
  items: TolerantTrace[];
  page: number;
  pages: number;
  total: number;
}

/**
 * One item of a trace list, read like any trace. An item that is not an object keeps its raw
 * value under the path ''; one without an interaction id (which the transcript needs to place it)
 * says so under `interaction_id`.
 */
export function readTraceListItem(raw: unknown): TolerantTrace {
  const trace = readTrace(raw);
  if (trace.interaction_id || !isRecord(raw) || trace._unread?.some((u) => u.path === 'interaction_id'))
    return trace;
  return {
    ...trace,
    _unread: [{ path: 'interaction_id', raw: raw.interaction_id }, ...(trace._unread ?? [])],
  };
}

/** The trace list: a bare array (spec) or the deployed service's page envelope; items one by one. */
export const TraceListIn = z.unknown().transform((raw, ctx): TraceListIn => {
  if (Array.isArray(raw)) {
    const items = raw.map(readTraceListItem);
    return { items, page: 1, pages: 1, total: items.length };
  }
  if (!isRecord(raw) || !Array.isArray(raw.items))
    return refuse(ctx, raw, 'neither an array of traces nor a page of them ({items: [...]})');
  const items = raw.items.map(readTraceListItem);
  const r = new FieldReader();
  return {
    items,
    page: r.number(raw.page, 'page') ?? 1,
    pages: r.number(raw.pages, 'pages') ?? 1,
    total: r.number(raw.total, 'total') ?? items.length,
  };
});

/** Any error body: spec `{error, message}`, deployed `{detail: string | [{loc, msg, type}]}`. */
export const ErrorIn = z.looseObject({
  error: z.string().optional(),
  message: z.string().optional(),
  detail: z
    .union([
      z.string(),
      z.array(z.looseObject({ loc: z.array(z.unknown()).optional(), msg: z.string().optional() })),
    ])
    .optional(),
  issues: z.array(BundleIssue).optional(),
});
export type ErrorIn = z.infer<typeof ErrorIn>;
