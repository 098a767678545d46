/**
 * What if and why not (reference service only): a stored turn decided again by the reference
 * engine with some values changed, the understanding held fixed (the tool chosen, the intent and
 * the values read from the message are the turn's), and on request the smallest single changes
 * that give the turn another decision.
 */
import { z } from 'zod';
import { OutcomeDifference } from './impact';

export const WHAT_IF_REQUEST_LIMITS = { edits: 64, valueChars: 2_000 } as const;

/**
 * A turn predicted from its thread's messages (a turn the reference engine did not run): at most
 * `earlierTurns` earlier messages are replayed, each of at most `messageChars` characters.
 */
export const PREDICTION_LIMITS = { earlierTurns: 30, messageChars: 20_000 } as const;

const Id = z.string().min(1).max(200);

export const ValueEditBody = z.union([
  z.strictObject({
    code: Id.describe('A parameter code of the bundle.'),
    value: z
      .union([z.string().max(WHAT_IF_REQUEST_LIMITS.valueChars), z.number(), z.boolean()])
      .describe('The value, as if the user had said it (a date as YYYY-MM-DD).'),
  }),
  z.strictObject({
    code: Id.describe('A parameter code of the bundle.'),
    missing: z.literal(true).describe('The value is not known.'),
  }),
]);
export type ValueEditBody = z.infer<typeof ValueEditBody>;

export const WhatIfRequest = z.strictObject({
  task_id: Id,
  interaction_id: Id.describe("The turn (the agent reply's message id) to decide again."),
  edits: z
    .array(ValueEditBody)
    .max(WHAT_IF_REQUEST_LIMITS.edits)
    .default([])
    .describe('Values changed for the turn; none: the turn as it was decided.'),
  why_not: z.boolean().default(false).describe('Also list the smallest changes that give another decision.'),
  include_engine_input: z
    .boolean()
    .default(false)
    .describe(
      'Also answer what the engine decides the turn from (`engine_input`), to decide it again elsewhere.',
    ),
});
export type WhatIfRequest = z.infer<typeof WhatIfRequest>;

const BundleChangeBody = z.union([
  z.object({ op: z.literal('set'), path: z.array(z.union([z.string(), z.number()])), value: z.unknown() }),
  z.object({ op: z.literal('remove'), path: z.array(z.union([z.string(), z.number()])) }),
]);

const WhyNotItemBody = z.object({
  family: z.enum(['data', 'bundle']),
  decision: z
    .string()
    .describe('The decision the turn gets with the change (verified by deciding it again).'),
  summary: z.string(),
  rule: z.string().optional(),
  edit: ValueEditBody.optional(),
  edits: z
    .array(ValueEditBody)
    .optional()
    .describe('Two value changes made together, for a decision no single change gives.'),
  change: BundleChangeBody.optional().describe('A change at a path of the bundle the turn ran with.'),
  boundary: z
    .object({ step_back: z.unknown() })
    .optional()
    .describe('One step short of the threshold, which does not give `decision`.'),
  differences: z.array(OutcomeDifference),
  reply: z.string(),
});

export const WhatIfParameter = z.object({
  code: z.string(),
  type: z.string(),
  values: z
    .array(z.union([z.string(), z.number()]))
    .optional()
    .describe('Allowed values of an enum.'),
  value: z.unknown().optional().describe('The value the turn ended with (absent: not known).'),
});
export type WhatIfParameter = z.infer<typeof WhatIfParameter>;

export const WHAT_IF_PARAMETERS_SHOWN = 200;

export const WhatIfResponse = z.object({
  task_id: z.string(),
  interaction_id: z.string(),
  bundle_source: z
    .object({ agent_id: z.string(), version_id: z.string(), bundle_hash: z.string().nullable() })
    .describe(
      'The bundle the turn ran with (a client bundle by hash, else the agent version), which bundle changes apply to.',
    ),
  parameters: z
    .array(WhatIfParameter)
    .describe(
      `The parameters a value may be given for: the turn's values, then the ones its rules read (at most ${WHAT_IF_PARAMETERS_SHOWN}).`,
    ),
  not_a_conversation_turn: z.literal(true),
  recorded: z.object({ decision: z.string(), reply: z.string() }),
  what_if: z.object({
    decision: z.string(),
    reply: z.string(),
    suggestions: z.array(z.string()),
    trace: z.record(z.string(), z.unknown()),
    overridden: z.array(z.string()).describe('Edited values an integration or a formula produced again.'),
  }),
  differences: z.array(OutcomeDifference).describe('What the edits changed: decision, rule results, tools.'),
  engine_input: z
    .object({
      state_before: z
        .record(z.string(), z.unknown())
        .describe("The engine's state before the turn (opaque)."),
      clock: z.string(),
      user_id: z.string(),
      recorded: z
        .record(z.string(), z.unknown())
        .describe('The stored trace the understanding is read from.'),
    })
    .optional(),
  why_not: z.object({ decision: z.string(), items: z.array(WhyNotItemBody), capped: z.boolean() }).optional(),
});
export type WhatIfResponse = z.infer<typeof WhatIfResponse>;
