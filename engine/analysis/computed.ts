/**
 * Computed values followed to the values the user gives. A computed parameter's formula (through
 * the computed values it reads) rests on some inputs; it is followed when at most one of them is a
 * number or a date and the others take finitely many values (an enum, a boolean, a text compared
 * with the formula's own literals), and, for each combination of those, the formula is a straight
 * line in the number or date (checked at seven points from -40,000 to 40,000, on the engine's own
 * formula evaluation). Then each operand a rule compares the computed value with gives a boundary
 * on that input, one per combination: the regions of the inputs decide the computed value's side
 * of every operand. Anything else is said not analysed.
 */
import type { Clock } from '../clock';
import { epochDayToIso } from '../clock';
import { applyComputations } from '../computations';
import { formulaRefs } from '../formula';
import type { CompiledBundle } from '../types';
import { newValues, toNumber } from '../values';

export interface Follow {
  /** The one number or date input, if any. */
  line: string | null;
  /** Inputs of finitely many values, with the values the formulas compare them with. */
  finite: { code: string; values: unknown[] }[];
}

/** At most this many combinations of the finite inputs are followed. */
const MAX_COMBINATIONS = 64;
const QUOTED = /"([^"\\]{0,200})"|'([^'\\]{0,200})'/g;

/** The formulas computing `code` (its own computation, and `computations` entries). */
export function formulasOf(compiled: CompiledBundle, code: string): string[] {
  const p = compiled.params.get(code);
  const out: string[] = [];
  if (p?.usage === 'computed' && typeof p.computation === 'string') out.push(p.computation);
  for (const c of compiled.bundle.computations ?? [])
    if (c.parameter === code && typeof c.formula === 'string') out.push(c.formula);
  return out;
}

export const isComputed = (compiled: CompiledBundle, code: string) => formulasOf(compiled, code).length > 0;

/** How `code` can be followed to its inputs, or why not. */
export function followOf(compiled: CompiledBundle, code: string): Follow | { why: string } {
  const inputs = new Set<string>();
  const texts: string[] = [];
  const seen = new Set<string>();
  const stack = [code];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (seen.has(c)) continue;
    seen.add(c);
    for (const f of formulasOf(compiled, c)) {
      texts.push(f);
      for (const ref of formulaRefs(f)) {
        if (isComputed(compiled, ref)) stack.push(ref);
        else inputs.add(ref);
      }
    }
    if (seen.size > 64) return { why: `${code} rests on more than 64 computed values` };
  }
  const literals = texts.flatMap((t) => [...t.matchAll(QUOTED)].map((m) => m[1] ?? m[2]!));
  let line: string | null = null;
  const finite: Follow['finite'] = [];
  for (const input of inputs) {
    const p = compiled.params.get(input);
    if (p?.type === 'numeric' || p?.type === 'date') {
      if (line !== null) return { why: `${code} rests on two numbers or dates (${line}, ${input})` };
      line = input;
    } else if (p?.type === 'boolean') finite.push({ code: input, values: [true, false] });
    else if (p?.type === 'enum' && Array.isArray(p.values) && p.values.length > 0)
      finite.push({ code: input, values: [...new Set([...p.values, ...literals])] });
    else if (p?.type === 'string')
      finite.push({ code: input, values: [...new Set([...literals, 'something else'])] });
    else return { why: `${code} rests on ${input}, a value of type ${p?.type ?? 'unknown'}` };
  }
  return { line, finite };
}

function* combinations(finite: Follow['finite']): Generator<Record<string, unknown>> {
  const at = finite.map(() => 0);
  for (;;) {
    const out: Record<string, unknown> = {};
    finite.forEach((f, i) => (out[f.code] = f.values[at[i]!]));
    yield out;
    let i = finite.length - 1;
    while (i >= 0 && at[i] === finite[i]!.values.length - 1) at[i--] = 0;
    if (i < 0) return;
    at[i]!++;
  }
}

/**
 * Where `code` crosses each of `operands`, as boundaries on its number or date input (days for a
 * date), for every combination of its finite inputs; null when it is not a straight line there.
 */
export function crossings(
  compiled: CompiledBundle,
  toolCode: string,
  code: string,
  follow: Follow,
  operands: number[],
  clock: Clock,
  isDate: boolean,
): number[] | null {
  if (follow.line === null || operands.length === 0) return [];
  const count = follow.finite.reduce((n, f) => n * Math.max(1, f.values.length), 1);
  if (count > MAX_COMBINATIONS) return null;
  const out: number[] = [];
  for (const fixed of combinations(follow.finite)) {
    const at = (x: number): number | undefined => {
      const values = newValues(fixed);
      values[follow.line!] = isDate ? epochDayToIso(x) : x;
      applyComputations(compiled, toolCode, values, clock, Object.create(null) as Record<string, string>);
      return toNumber(values[code]);
    };
    const origin = isDate ? clock.day : 0;
    const f0 = at(origin);
    const f1 = at(origin + 1);
    if (f0 === undefined || f1 === undefined) continue; // no value for this combination: nothing to cross
    const a = f1 - f0;
    for (const dx of [-40_000, -365, -1, 2, 31, 40_000]) {
      const fx = at(origin + dx);
      if (fx === undefined || Math.abs(fx - (f0 + a * dx)) > 1e-4 * Math.max(1, Math.abs(fx))) return null;
    }
    if (a === 0) continue;
    for (const b of operands) {
      const x = origin + (b - f0) / a;
      if (isDate) out.push(Math.floor(x), Math.ceil(x));
      else out.push(x, ...roundedNeighbours(x));
    }
  }
  return out;
}

/**
 * The engine rounds computed numbers to six decimals: the crossing of a rounded line may sit a
 * hair off the exact one. Both are kept as boundaries.
 */
function roundedNeighbours(x: number): number[] {
  const r = Math.round(x * 1e6) / 1e6;
  return r === x ? [] : [r];
}
