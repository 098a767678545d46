/**
 * Messaging API v1 wire contract (spec + wire-compat names).
 *
 * Request schemas are what the reference service accepts (it validates with them). Response
 * schemas come in two kinds: the exact shape the reference service emits (used for its OpenAPI
 * document and its tests) and a tolerant shape the client parses any server's answer with
 * (deployed-service variants, missing optional fields, unknown fields kept).
 */
import { z } from 'zod';
import { Trace, TolerantTrace } from './trace';

export const ORIGINS_SEEN = ['web-widget', 'api', 'third-party', 'cli', 'stores'] as const;
export const API_KEY_HEADERS = ['x-service-api-key', 'x-aui-api-key'] as const;

const Id = z.string().min(1).max(200);
const Bundleish = z
  .record(z.string(), z.unknown())
  .describe('Agent settings bundle (see bundle.md); validated before execution.');

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
  reference_clock: z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      "Reference service only: the task's clock (ISO-8601 date-time) instead of its creation time, so that date-dependent turns replay exactly. Other services ignore it.",
    ),
});
export type CreateTaskRequest = z.infer<typeof CreateTaskRequest>;

export const SendMessageRequest = z.looseObject({
  type: z.literal('message').describe('Must be the literal "message".'),
  task_id: Id,
  text: z.string().min(1).max(20_000).describe("The user's message."),
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
  text: z.string().min(1).max(20_000).describe('The message to replay: the original or an edited text.'),
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

export const TracePage = z.object({
  items: z.array(Trace),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  pages: z.number().int(),
});

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
export const AgentSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  active_version: z.string(),
  versions: z.array(AgentVersion),
});
export type AgentSummary = z.infer<typeof AgentSummary>;
export const AgentList = z.object({ agents: z.array(AgentSummary) });
export const AgentBundleResponse = z.object({
  agent_id: z.string(),
  version_id: z.string(),
  version_tag: z.string().nullable(),
  bundle: z.record(z.string(), z.unknown()),
});
export const ValidateRequest = z.object({ agent_settings_bundle: z.unknown() });
export const ValidateResponse = z.object({ valid: z.boolean(), issues: z.array(BundleIssue) });

// ---------------------------------------------------------------- tolerant client parsing

const stringList = z
  .array(z.unknown())
  .nullish()
  .transform((xs) =>
    (xs ?? []).map((x) =>
      typeof x === 'string'
        ? x
        : typeof x === 'object' && x && 'text' in x
          ? String(x.text)
          : JSON.stringify(x),
    ),
  );

/** Any server's task: `id` or `task_id`, null or missing welcome and suggestions. */
export const TaskIn = z
  .looseObject({
    id: z.string().optional(),
    task_id: z.string().optional(),
    user_id: z.string().optional(),
    title: z.string().nullish(),
    welcome_message: z.string().nullish(),
    followup_suggestions: stringList,
    /** The version the task runs with (reference service; absent elsewhere). */
    version_id: z.string().nullish(),
  })
  .refine((t) => Boolean(t.id ?? t.task_id), { message: 'the task has neither id nor task_id' })
  .transform((t) => ({ ...t, id: (t.id ?? t.task_id) as string }));
export type TaskIn = z.infer<typeof TaskIn>;

export const MessageIn = z.looseObject({
  id: z.string(),
  text: z
    .string()
    .nullish()
    .transform((s) => s ?? ''),
  followup_suggestions: stringList,
  trace_info: TolerantTrace.nullish(),
  created_at: z.string().nullish(),
  bundle_hash: z.string().nullish(),
  /** The agent version the turn ran with (reference service; absent elsewhere). */
  version_id: z.string().nullish(),
});
export type MessageIn = z.infer<typeof MessageIn>;

export const RerunIn = z.looseObject({
  regenerated_task_id: z.string(),
  message: MessageIn,
});
export type RerunIn = z.infer<typeof RerunIn>;

/** The trace list: a bare array (spec) or the deployed service's page envelope. */
export const TraceListIn = z.union([
  z.array(TolerantTrace).transform((items) => ({ items, page: 1, pages: 1, total: items.length })),
  z
    .looseObject({
      items: z.array(TolerantTrace),
      total: z.number().optional(),
      page: z.number().optional(),
      pages: z.number().optional(),
    })
    .transform((p) => ({
      items: p.items,
      page: p.page ?? 1,
      pages: p.pages ?? 1,
      total: p.total ?? p.items.length,
    })),
]);
export type TraceListIn = z.infer<typeof TraceListIn>;

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
