/**
 * Computed parameters: a parameter's own `computation` (always), and `computations` entries
 * (for the tools in their applied_to; none listed = every tool). Formulas run once each, in
 * dependency order (a formula after the formulas computing what it reads), so computed values may
 * build on each other and the work is linear in the formulas; a formula that cannot be computed
 * clears its value. Formulas caught in a cycle (the validator rejects those) run once, in bundle
 * order, after the others.
 */
import type { Clock } from './clock';
import { computeFormula, formulaRefs, type FormulaOutcome } from './formula';
import type { CompiledBundle, Values } from './types';

interface Formula {
  code: string;
  formula: string;
}

const orders = new WeakMap<CompiledBundle, Map<string | null, Formula[]>>();

/** The formulas that apply to `toolCode`, in the order they run (cached per compiled bundle). */
function formulasFor(compiled: CompiledBundle, toolCode: string | null): Formula[] {
  let byTool = orders.get(compiled);
  if (!byTool) orders.set(compiled, (byTool = new Map()));
  let order = byTool.get(toolCode);
  if (!order) byTool.set(toolCode, (order = dependencyOrder(applicable(compiled, toolCode))));
  return order;
}

function applicable(compiled: CompiledBundle, toolCode: string | null): Formula[] {
  const formulas: Formula[] = [];
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
  return formulas;
}

/**
 * Kahn's algorithm over the computed parameters: a parameter's formulas (in bundle order) come
 * after those of every computed parameter they read. Linear in formulas and references.
 */
function dependencyOrder(formulas: Formula[]): Formula[] {
  const byCode = new Map<string, Formula[]>();
  for (const f of formulas) (byCode.get(f.code) ?? byCode.set(f.code, []).get(f.code)!).push(f);
  const waitingOn = new Map<string, number>();
  const readers = new Map<string, string[]>();
  for (const [code, list] of byCode) {
    const reads = new Set(list.flatMap((f) => formulaRefs(f.formula)));
    let count = 0;
    for (const ref of reads) {
      if (ref === code || !byCode.has(ref)) continue;
      count++;
      (readers.get(ref) ?? readers.set(ref, []).get(ref)!).push(code);
    }
    waitingOn.set(code, count);
  }
  const ready = [...byCode.keys()].filter((code) => waitingOn.get(code) === 0);
  const done = new Set<string>();
  const out: Formula[] = [];
  for (let i = 0; i < ready.length; i++) {
    const code = ready[i]!;
    done.add(code);
    out.push(...byCode.get(code)!);
    for (const reader of readers.get(code) ?? []) {
      const left = waitingOn.get(reader)! - 1;
      waitingOn.set(reader, left);
      if (left === 0) ready.push(reader);
    }
  }
  for (const f of formulas) if (!done.has(f.code)) out.push(f);
  return out;
}

/**
 * Refreshes the computed values for a tool. A formula whose value is not known yet clears it; one
 * that cannot run on known values clears it and is noted in `failed` (with why), so the rules that
 * read it are errors rather than undecided.
 */
export function applyComputations(
  compiled: CompiledBundle,
  toolCode: string | null,
  values: Values,
  clock: Clock,
  failed: Record<string, string>,
): void {
  for (const { code, formula } of formulasFor(compiled, toolCode)) {
    const broken = formulaRefs(formula).find((ref) => ref !== code && failed[ref] !== undefined);
    const out: FormulaOutcome =
      broken !== undefined
        ? { kind: 'error', reason: `it reads ${broken}, which could not be computed` }
        : computeFormula(formula, { values, clock, target: code });
    if (out.kind === 'error') failed[code] = out.reason;
    else delete failed[code];
    const v = out.kind === 'value' ? out.value : undefined;
    if (v === undefined || v === null) delete values[code];
    else values[code] = typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v;
  }
}
