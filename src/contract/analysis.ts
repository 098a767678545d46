/**
 * Lint and semantic diff of bundles (the engine's `analysis/`, the reference service's
 * `POST /reference/v1/lint` and `POST /reference/v1/diff`, `threadline lint` and `threadline diff`).
 *
 * Both partition, per tool, the values its rules read into the finite set of regions the
 * conditions tell apart, and decide each region with the engine at one point of it. A finding or a
 * difference carries a witness: the tool, the values and the clock at which the engine shows it,
 * and, where the engine confirmed one, a short conversation that reaches it.
 */
import { z } from 'zod';
import { ClockDateTime } from './api';
import { Bundle } from './bundle';

/** What one analysis may decide: regions (engine decisions) per tool, and in all. */
export const ANALYSIS_LIMITS = {
  /** Regions decided per tool; past it the tool's combined checks are skipped and said so. */
  regionsPerTool: 16_384,
  /** Regions decided in one analysis, all tools together. */
  regions: 50_000,
  /** Findings or differences answered (the rest counted in `capped`). */
  items: 500,
} as const;

const JsonValue = z.unknown();

export const Witness = z
  .object({
    tool: z.string().describe('The tool the witness runs.'),
    clock: z.string().describe("The conversation's clock (ISO-8601): day windows count from it."),
    values: z
      .record(z.string(), JsonValue)
      .describe('Parameter code → value (unknown parameters are left out), as if the user had said them.'),
    messages: z
      .array(z.string())
      .optional()
      .describe('A conversation the engine confirmed reaches the same outcome, when one was found.'),
  })
  .describe('Where the engine shows a finding or a difference.');
export type Witness = z.infer<typeof Witness>;

/** One analysed variable's part of a region, in words and as bounds (for a search of recorded turns). */
export const RegionPart = z.object({
  param: z.string(),
  /** `days_ago` when the parameter is a date read against the clock (the bounds count days before it). */
  axis: z.enum(['number', 'date', 'days_ago', 'value', 'boolean', 'known']),
  words: z
    .string()
    .describe('e.g. "amount > 500 and ≤ 1000", "transaction-date 9 to 29 days before the clock"'),
  unknown: z.boolean().optional().describe('The value is not known.'),
  or_unknown: z.boolean().optional().describe('The bounds hold, or the value is not known.'),
  min: z.union([z.number(), z.string()]).optional(),
  min_inclusive: z.boolean().optional(),
  max: z.union([z.number(), z.string()]).optional(),
  max_inclusive: z.boolean().optional(),
  one_of: z.array(JsonValue).optional(),
  none_of: z.array(JsonValue).optional(),
});
export type RegionPart = z.infer<typeof RegionPart>;

export const Region = z.object({
  words: z.string().describe('The region in words, e.g. "amount > 500 and transaction-date known".'),
  parts: z
    .array(RegionPart)
    .describe('One per parameter the region constrains; a parameter left out may take any value.'),
});
export type Region = z.infer<typeof Region>;

export const NotAnalysed = z.object({
  tool: z.string().optional(),
  rule: z.string().optional(),
  param: z.string().optional(),
  reason: z.string(),
});
export type NotAnalysed = z.infer<typeof NotAnalysed>;

export const FINDING_SEVERITIES = ['error', 'warning', 'info'] as const;

export const LintFinding = z.object({
  code: z.string().describe('dead_rule, always_holds, shadowed_rule, rule_conflict, unreachable_message, …'),
  severity: z.enum(FINDING_SEVERITIES),
  message: z.string(),
  loc: z
    .object({ path: z.array(z.union([z.string(), z.number()])) })
    .describe('Where in the bundle as given (a JSON path).'),
  rule: z.string().optional(),
  tool: z.string().optional(),
  witness: Witness.optional(),
});
export type LintFinding = z.infer<typeof LintFinding>;

export const LintRequest = z.strictObject({
  agent_settings_bundle: Bundle,
  clock: ClockDateTime.optional().describe('Day windows count from it; now when omitted.'),
});
export type LintRequest = z.infer<typeof LintRequest>;

export const LintResponse = z.object({
  findings: z.array(LintFinding),
  /** True when a cap left something unanalysed (`not_analysed` says what). */
  capped: z.boolean(),
  not_analysed: z.array(NotAnalysed),
  regions: z.number().describe('Regions decided by the engine.'),
});
export type LintResponse = z.infer<typeof LintResponse>;

/** What one side of a difference decides. */
export const SideOutcome = z.object({
  decision: z.string(),
  rules: z.array(z.string()).describe('The deciding rules, first first.'),
  tools_invoked: z.array(z.string()),
  reply: z.string(),
});
export type SideOutcome = z.infer<typeof SideOutcome>;

export const Difference = z.object({
  tool: z.string(),
  region: Region,
  /** Regions of the analysis this difference covers. */
  points: z.number(),
  before: SideOutcome,
  after: SideOutcome,
  witness: Witness,
  /** Stored turns of the agent in this region (reference service, when asked). */
  recorded: z.object({ count: z.number(), search: z.string() }).optional(),
});
export type Difference = z.infer<typeof Difference>;

export const DiffResult = z.object({
  equivalent: z
    .boolean()
    .describe('True only when every region of every tool was decided alike (proved, never sampled).'),
  differences: z.array(Difference),
  capped: z.boolean(),
  not_analysed: z.array(NotAnalysed),
  regions: z.number(),
});
export type DiffResult = z.infer<typeof DiffResult>;

const DiffSide = z.union([
  z.strictObject({ agent_settings_bundle: Bundle }),
  z.strictObject({ version_id: z.string().min(1).max(200) }),
]);

export const DiffRequest = z.strictObject({
  agent_id: z.string().min(1).max(200).optional().describe('Needed when a side names a version.'),
  base: DiffSide,
  head: DiffSide,
  clock: ClockDateTime.optional().describe('Day windows count from it; now when omitted.'),
  recorded_since: ClockDateTime.optional().describe(
    'Count the stored turns of the agent since then in each changed region.',
  ),
});
export type DiffRequest = z.infer<typeof DiffRequest>;

export const DiffResponse = DiffResult.extend({
  base: z.object({ version_id: z.string().optional(), bundle_hash: z.string() }),
  head: z.object({ version_id: z.string().optional(), bundle_hash: z.string() }),
});
export type DiffResponse = z.infer<typeof DiffResponse>;
