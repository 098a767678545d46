/**
 * The trace object of one interaction (spec §2.4), plus the richer fields of the deployed
 * runtime (wire-compat "Trace object"). Parsing is tolerant: unknown keys are kept and enum-like
 * fields are plain strings, because the value lists are open-ended.
 */
import { z } from 'zod';
import { FieldReader, isRecord, UNREAD_KEY, type UnreadField } from './tolerant';

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
const RichTraceFields = {
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

export interface TolerantRule {
  rule_id: string;
  rule_type: string;
  predicate: string;
  result: string;
  reason: string;
  [key: string]: unknown;
}

export interface TolerantToolCall {
  tool: string;
  parameters: Record<string, unknown>;
  result: string;
  [key: string]: unknown;
}

/**
 * A trace as the client holds it, from any server: every spec field present (absent ones as
 * empty values), unknown fields kept, and `_unread` listing the fields that arrived in another
 * shape (see `tolerant.ts`).
 */
export interface TolerantTrace {
  interaction_id: string;
  intent: string;
  entities: Record<string, unknown>;
  parameters_extracted: string[];
  rules_evaluated: TolerantRule[];
  tools_considered: string[];
  tools_invoked: TolerantToolCall[];
  decision: string;
  _unread?: UnreadField[];
  [key: string]: unknown;
}

function readRule(r: FieldReader, v: unknown, path: string): TolerantRule | undefined {
  const o = r.record(v, path);
  if (!o) {
    if (v === null || v === undefined) r.mark(path, v);
    return undefined;
  }
  return {
    ...o,
    rule_id: r.text(o.rule_id, `${path}.rule_id`) ?? '',
    rule_type: r.text(o.rule_type, `${path}.rule_type`) ?? '',
    predicate: r.text(o.predicate, `${path}.predicate`) ?? '',
    result: r.text(o.result, `${path}.result`) ?? '',
    reason: r.text(o.reason, `${path}.reason`) ?? '',
  };
}

function readToolCall(r: FieldReader, v: unknown, path: string): TolerantToolCall | undefined {
  const o = r.record(v, path);
  if (!o) {
    if (v === null || v === undefined) r.mark(path, v);
    return undefined;
  }
  return {
    ...o,
    tool: r.text(o.tool, `${path}.tool`) ?? '',
    parameters: r.record(o.parameters, `${path}.parameters`) ?? {},
    result: r.text(o.result, `${path}.result`) ?? '',
  };
}

/**
 * Reads one trace field by field. Not an object at all: an empty trace whose `_unread` holds the
 * whole raw value under the path ''.
 */
export function readTrace(raw: unknown): TolerantTrace {
  const r = new FieldReader();
  const o = isRecord(raw) ? raw : undefined;
  if (!o) r.mark('', raw);
  else r.carry(o[UNREAD_KEY]);
  const t = o ?? {};
  const trace: TolerantTrace = {
    ...t,
    interaction_id: r.text(t.interaction_id, 'interaction_id') ?? '',
    intent: r.text(t.intent, 'intent') ?? '',
    entities: r.record(t.entities, 'entities') ?? {},
    parameters_extracted: r.textList(t.parameters_extracted, 'parameters_extracted'),
    rules_evaluated: r.list(t.rules_evaluated, 'rules_evaluated', (x, p) => readRule(r, x, p)),
    tools_considered: r.textList(t.tools_considered, 'tools_considered'),
    tools_invoked: r.list(t.tools_invoked, 'tools_invoked', (x, p) => readToolCall(r, x, p)),
    decision: r.text(t.decision, 'decision') ?? '',
  };
  if (r.unread.length) trace[UNREAD_KEY] = r.unread;
  else delete trace[UNREAD_KEY];
  return trace;
}

/** What the client accepts from any server (a zod schema over `readTrace`, which never fails). */
export const TolerantTrace = z.unknown().transform((v): TolerantTrace => readTrace(v));
