/**
 * The trace object of one interaction (spec §2.4), plus the richer fields of the deployed
 * runtime (wire-compat "Trace object"). Parsing is tolerant: unknown keys are kept and enum-like
 * fields are plain strings, because the value lists are open-ended.
 */
import { z } from 'zod';

/** Values seen in the spec and emitted by the reference engine; others are shown as they are. */
export const KNOWN_DECISIONS = [
  'proceed',
  'block_with_explanation',
  'request_confirmation',
  'request_information',
] as const;
export const KNOWN_RULE_TYPES = [
  'policy',
  'confirmation',
  'authentication',
  'conditional',
  'sequencing',
] as const;
export const KNOWN_RULE_RESULTS = [
  'allowed',
  'blocked',
  'requires_confirmation',
  'not_applicable',
  'error',
] as const;

const EntityValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const RuleEvaluation = z.looseObject({
  rule_id: z.string(),
  rule_type: z.string(),
  predicate: z.string(),
  result: z.string(),
  reason: z.string(),
});
export type RuleEvaluation = z.infer<typeof RuleEvaluation>;

export const ToolInvocation = z.looseObject({
  tool: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  result: z.string(),
});
export type ToolInvocation = z.infer<typeof ToolInvocation>;

/** The richer shape read by the deployed runtime's own tooling (all optional). */
export const RichTraceFields = {
  input: z.looseObject({ message: z.string() }).optional(),
  understanding: z
    .looseObject({
      intents: z.array(z.string()),
      extracted_params: z.record(z.string(), z.unknown()),
    })
    .optional(),
  decisions: z.array(z.looseObject({ type: z.string(), tool: z.string().optional() })).optional(),
  rules_evaluations: z
    .array(z.looseObject({ code: z.string(), triggered: z.boolean(), reason: z.string().optional() }))
    .optional(),
  response: z
    .looseObject({
      type: z.string(),
      message: z.string(),
      suggestions: z.array(z.string()).optional(),
    })
    .optional(),
  latency: z.looseObject({ elapsed: z.number(), unit: z.string() }).optional(),
};

export const Trace = z.looseObject({
  interaction_id: z.string(),
  intent: z.string(),
  entities: z.record(z.string(), EntityValue),
  parameters_extracted: z.array(z.string()),
  rules_evaluated: z.array(RuleEvaluation),
  tools_considered: z.array(z.string()),
  tools_invoked: z.array(ToolInvocation),
  decision: z.string(),
  ...RichTraceFields,
});
export type Trace = z.infer<typeof Trace>;

/**
 * What the client accepts from any server: every spec field may be missing (a deployed service
 * may omit empty ones); defaults make the rest of the app simple.
 */
export const TolerantTrace = z.looseObject({
  interaction_id: z.string().default(''),
  intent: z.string().default(''),
  entities: z.record(z.string(), z.unknown()).catch({}).default({}),
  parameters_extracted: z.array(z.string()).catch([]).default([]),
  rules_evaluated: z
    .array(
      z.looseObject({
        rule_id: z.coerce.string().default(''),
        rule_type: z.coerce.string().default(''),
        predicate: z.coerce.string().default(''),
        result: z.coerce.string().default(''),
        reason: z.coerce.string().default(''),
      }),
    )
    .catch([])
    .default([]),
  tools_considered: z.array(z.coerce.string()).catch([]).default([]),
  tools_invoked: z
    .array(
      z.looseObject({
        tool: z.coerce.string().default(''),
        parameters: z.record(z.string(), z.unknown()).catch({}).default({}),
        result: z.coerce.string().default(''),
      }),
    )
    .catch([])
    .default([]),
  decision: z.coerce.string().default(''),
});
export type TolerantTrace = z.infer<typeof TolerantTrace>;
