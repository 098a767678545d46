/**
 * Computed parameters: a parameter's own `computation` (always), and `computations` entries
 * (for the tools in their applied_to; none listed = every tool). Repeated until nothing changes,
 * so computed values may build on each other; a formula that cannot be computed clears its value.
 */
import type { Clock } from './clock';
import { evaluateFormula } from './formula';
import type { CompiledBundle, Values } from './types';

export function applyComputations(
  compiled: CompiledBundle,
  toolCode: string | null,
  values: Values,
  clock: Clock,
): void {
  const formulas: { code: string; formula: string }[] = [];
  for (const p of compiled.params.values()) {
    if (p.usage === 'computed' && typeof p.computation === 'string')
      formulas.push({ code: p.code, formula: p.computation });
  }
  for (const c of compiled.bundle.computations ?? []) {
    if (typeof c.parameter !== 'string' || typeof c.formula !== 'string') continue;
    const applied = c.applied_to;
    if (Array.isArray(applied) && applied.length > 0 && (toolCode === null || !applied.includes(toolCode)))
      continue;
    formulas.push({ code: c.parameter, formula: c.formula });
  }
  if (formulas.length === 0) return;
  for (let pass = 0; pass <= formulas.length; pass++) {
    let changed = false;
    for (const { code, formula } of formulas) {
      const v = evaluateFormula(formula, { values, clock });
      const before = values[code];
      if (v === undefined || v === null) {
        if (code in values) {
          delete values[code];
          changed = true;
        }
      } else if (before !== v) {
        values[code] = typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v;
        changed = changed || before !== values[code];
      }
    }
    if (!changed) return;
  }
}
