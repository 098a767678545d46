/** The trace of one turn: the spec's fields plus the richer ones of wire-compat (all but latency). */
import type { Trace } from '../src/contract/trace';
import type { CompiledBundle, Values } from './types';
import type { BundleChange } from './provenance';
import type { TurnWork } from './run-tool';

const RESPONSE_TYPE: Record<string, string> = {
  proceed: 'answer',
  request_information: 'question',
  block_with_explanation: 'blocked',
  request_confirmation: 'confirmation_request',
};

type EntityValue = string | number | boolean | null;

function entityValue(v: unknown): EntityValue {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  const json = JSON.stringify(v) ?? '';
  return json.length > 500 ? `${json.slice(0, 497)}...` : json;
}

/** Resolved values keyed `entity.parameter` (or the bare parameter code when it has no entity), in bundle order. */
function traceEntities(compiled: CompiledBundle, values: Values): Record<string, EntityValue> {
  const out = Object.create(null) as Record<string, EntityValue>;
  const keyOf = (code: string) => {
    const path = compiled.entityKeyOfParam.get(code);
    return path ? `${path}.${code}` : code;
  };
  for (const code of compiled.params.keys()) if (code in values) out[keyOf(code)] = entityValue(values[code]);
  for (const code of Object.keys(values))
    if (!compiled.params.has(code)) out[code] = entityValue(values[code]);
  return out;
}

export interface TraceInput {
  interactionId: string;
  message: string;
  intent: string;
  decision: string;
  reply: string;
  suggestions: string[];
  extracted: Values;
  considered: string[];
  work: TurnWork;
  /** Where each value of the state came from, after the turn. */
  sources: Record<string, string>;
  /** What a change of bundle since the previous turn did to the state, if there was one. */
  change: BundleChange | null;
}

/** The origins keyed like `entities` (bundle order first), so the two read side by side. */
function valueSources(compiled: CompiledBundle, sources: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const code of compiled.params.keys()) if (code in sources) out[code] = sources[code]!;
  for (const code of Object.keys(sources)) if (!compiled.params.has(code)) out[code] = sources[code]!;
  return out;
}

export function buildTrace(t: TraceInput): Trace {
  const { work } = t;
  return {
    interaction_id: t.interactionId,
    intent: t.intent,
    entities: traceEntities(work.compiled, work.values),
    parameters_extracted: Object.keys(t.extracted),
    rules_evaluated: work.rules,
    tools_considered: t.considered,
    tools_invoked: work.invoked,
    decision: t.decision,
    input: { message: t.message },
    understanding: { intents: [t.intent], extracted_params: t.extracted },
    decisions: work.decisions as Trace['decisions'],
    rules_evaluations: work.rules.map((r, i) => ({
      code: r.rule_id,
      triggered: work.triggered[i] ?? false,
      reason: r.reason,
    })),
    response: { type: RESPONSE_TYPE[t.decision] ?? 'answer', message: t.reply, suggestions: t.suggestions },
    value_sources: valueSources(work.compiled, t.sources),
    ...(t.change ? { bundle_change: t.change } : {}),
  };
}
