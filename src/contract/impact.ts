/**
 * The impact batch (reference service only): replays saved conversations with an agent's version
 * (the baseline) and with a draft bundle, in the service's process, and answers the turns whose
 * outcome differs. The bundle editor's impact preview is its client.
 *
 * A turn's outcome is its decision, every rule's result and the tools invoked; a turn "changes"
 * when any of them differs between the two runs (the reply's wording and the values held are
 * returned for the client's expectations, but do not count as a change).
 */
import { z } from 'zod';
import { ClockDateTime } from './api';

/** Bounds that keep one request's work linear and finite. */
export const IMPACT_LIMITS = {
  cases: 1_000,
  messagesPerCase: 200,
  messages: 5_000,
  messageChars: 20_000,
} as const;

const Id = z.string().min(1).max(200);

export const ImpactCase = z.strictObject({
  id: Id.describe("The client's name for the case; answered back as is."),
  clock: ClockDateTime.describe(
    'The task clock both runs use (ISO-8601), so date-dependent turns replay exactly.',
  ),
  user_id: Id.optional().describe('The user id of the conversation; test-user when absent.'),
  messages: z
    .array(z.string().min(1).max(IMPACT_LIMITS.messageChars))
    .min(1)
    .max(IMPACT_LIMITS.messagesPerCase)
    .describe("The user's messages in order."),
});
export type ImpactCase = z.infer<typeof ImpactCase>;

export const ImpactRequest = z
  .strictObject({
    agent_settings_bundle: z
      .record(z.string(), z.unknown())
      .describe(
        'The draft bundle (see docs/bundle/README.md in the repository); validated before any case runs.',
      ),
    version_id: Id.optional().describe("The baseline version; the agent's active version when omitted."),
    cases: z.array(ImpactCase).min(1).max(IMPACT_LIMITS.cases),
  })
  .refine((r) => r.cases.reduce((n, c) => n + c.messages.length, 0) <= IMPACT_LIMITS.messages, {
    message: `at most ${IMPACT_LIMITS.messages} messages in all the cases together`,
    path: ['cases'],
  });
export type ImpactRequest = z.infer<typeof ImpactRequest>;

/** What a turn did: the parts of its trace an expectation reads, and the reply. */
export const TurnOutcome = z.object({
  reply: z.string(),
  trace: z.object({
    decision: z.string(),
    rules_evaluated: z.array(z.object({ rule_id: z.string(), result: z.string(), reason: z.string() })),
    tools_invoked: z.array(z.object({ tool: z.string(), result: z.string() })),
    entities: z.record(z.string(), z.unknown()),
  }),
});
export type TurnOutcome = z.infer<typeof TurnOutcome>;

export const OutcomeDifference = z.object({
  kind: z.enum(['decision', 'rule', 'tool']),
  /** The rule id or tool code; '' for the decision. */
  subject: z.string(),
  /** A rule's result (or "not evaluated"), a tool's "invoked" / "not invoked", the decision. */
  before: z.string(),
  after: z.string(),
});
export type OutcomeDifference = z.infer<typeof OutcomeDifference>;

export const TurnChange = z.object({
  /** 0-based index of the message in the case. */
  turn: z.number().int(),
  message: z.string(),
  differences: z.array(OutcomeDifference),
  before: TurnOutcome,
  after: TurnOutcome,
});
export type TurnChange = z.infer<typeof TurnChange>;

export const ImpactCaseResult = z.object({
  id: z.string(),
  /** same: every turn's outcome is the baseline's; changed: some differ; error: a run stopped. */
  status: z.enum(['same', 'changed', 'error']),
  /** Messages replayed with both bundles. */
  turns_run: z.number().int(),
  changes: z.array(TurnChange),
  error: z
    .object({
      side: z.enum(['baseline', 'draft']),
      turn: z.number().int(),
      message: z.string(),
    })
    .optional(),
});
export type ImpactCaseResult = z.infer<typeof ImpactCaseResult>;

export const ImpactResponse = z.object({
  agent_id: z.string(),
  baseline: z.object({
    version_id: z.string(),
    version_tag: z.string().nullable(),
    bundle_hash: z.string(),
  }),
  draft: z.object({ bundle_hash: z.string() }),
  total: z.number().int(),
  changed: z.number().int(),
  errors: z.number().int(),
  cases: z.array(ImpactCaseResult),
});
export type ImpactResponse = z.infer<typeof ImpactResponse>;
