/**
 * The parameters a what-if may give a value for, with their type, allowed values and the value
 * the turn ended with: first those the turn held or read from the message, then those its rules
 * read, in bundle order; at most `WHAT_IF_PARAMETERS_SHOWN` (computed parameters are left out:
 * the engine computes them again).
 */
import type { Bundle } from '../src/contract/bundle';
import type { Trace } from '../src/contract/trace';
import { WHAT_IF_PARAMETERS_SHOWN, type WhatIfParameter } from '../src/contract/what-if';
import { compileBundle } from './compile';
import type { EngineState } from './contract';

export function editableParameters(
  bundle: Bundle,
  trace: Trace,
  before: EngineState,
  after: EngineState,
): WhatIfParameter[] {
  const compiled = compileBundle(bundle);
  const held = (s: EngineState) =>
    s.values && typeof s.values === 'object' ? (s.values as Record<string, unknown>) : {};
  const values = held(after);
  const wanted = new Set<string>([
    ...Object.keys(held(before)),
    ...Object.keys(values),
    ...Object.keys(trace.understanding?.extracted_params ?? {}),
  ]);
  // The codes the rules' predicates name (their text names the parameters they read).
  const named = new Set<string>();
  for (const r of trace.rules_evaluated.slice(0, 2_000))
    for (const word of r.predicate.split(/[^A-Za-z0-9_.-]+/)) if (compiled.params.has(word)) named.add(word);
  const out: WhatIfParameter[] = [];
  const taken = new Set<string>();
  for (const pass of [wanted, named])
    for (const p of compiled.params.values()) {
      if (out.length >= WHAT_IF_PARAMETERS_SHOWN) return out;
      if (!pass.has(p.code) || p.usage === 'computed' || taken.has(p.code)) continue;
      taken.add(p.code);
      out.push({
        code: p.code,
        type: p.type,
        ...(Array.isArray(p.values) ? { values: p.values } : {}),
        ...(p.code in values ? { value: values[p.code] } : {}),
      });
    }
  return out;
}
