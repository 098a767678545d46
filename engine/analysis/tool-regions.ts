/**
 * Every region of a tool decided by the engine, within the analysis's caps. The regions come from
 * the values the tool's scope reads (variables.ts → regions.ts); each is decided at its point
 * (decide.ts). When the regions of a tool pass `ANALYSIS_LIMITS.regionsPerTool`, or the analysis's
 * budget, none is decided and the caller says so.
 */
import { ANALYSIS_LIMITS } from '../../src/contract/analysis';
import type { Bundle } from '../../src/contract/bundle';
import { epochDayToIso, toEpochDay } from '../clock';
import type { CompiledTool } from '../types';
import { toNumber } from '../values';
import { decideAt, type Decided } from './decide';
import { regionCount, regionsOf, unitsOf, valuesAt, type Unit } from './regions';
import type { Variable } from './variables';

export interface DecidedRegion {
  /** The choice of each unit. */
  choice: number[];
  values: Record<string, unknown>;
  decided: Decided;
}

/** What is left to decide in one analysis (all tools together). */
export interface RegionBudget {
  left: number;
}

export const newBudget = (): RegionBudget => ({ left: ANALYSIS_LIMITS.regions });

/** A filled value of a variable that no boundary places (a number, a date, or its example). */
export function sample(v: Variable): unknown {
  if (v.axis === 'number') return toNumber(v.sample) ?? 1;
  if (v.axis === 'date') {
    const day = toEpochDay(v.sample);
    return day === undefined ? '2025-01-01' : epochDayToIso(day);
  }
  return v.sample;
}

export const unitsFor = (variables: Variable[], presence: readonly string[] = []): Unit[] =>
  unitsOf(variables, sample, presence);

/** How many regions `units` make, or null when past the caps (nothing is spent then). */
export function affordable(units: Unit[], budget: RegionBudget, sides = 1): number | null {
  const n = regionCount(units, ANALYSIS_LIMITS.regionsPerTool);
  if (n > ANALYSIS_LIMITS.regionsPerTool || n * sides > budget.left) return null;
  budget.left -= n * sides;
  return n;
}

/** Every region of `units` decided for `tool` of `bundle`. */
export function decideRegions(
  bundle: Bundle,
  tool: CompiledTool,
  units: Unit[],
  clock: string,
): DecidedRegion[] {
  const out: DecidedRegion[] = [];
  for (const choice of regionsOf(units)) {
    const values = valuesAt(units, choice);
    out.push({ choice, values, decided: decideAt(bundle, tool, values, clock) });
  }
  return out;
}

/** The variables of two scopes of one tool as one list: every boundary and value of either. */
export function mergeVariables(a: Variable[], b: Variable[]): Variable[] {
  const byCode = new Map<string, Variable>();
  for (const v of a)
    byCode.set(v.code, {
      ...v,
      bounds: [...v.bounds],
      literals: [...v.literals],
      contained: [...v.contained],
    });
  const groupB = new Map<number, number>();
  let nextGroup = Math.max(-1, ...a.map((v) => v.group ?? -1)) + 1;
  for (const v of b) {
    const mine = byCode.get(v.code);
    if (!mine || mine.axis !== v.axis) {
      const group =
        v.group === null ? null : (groupB.get(v.group) ?? groupB.set(v.group, nextGroup++).get(v.group)!);
      byCode.set(v.code, { ...v, group });
      continue;
    }
    mine.bounds = [...new Set([...mine.bounds, ...v.bounds])].sort((x, y) => x - y);
    mine.literals = [...new Set([...mine.literals, ...v.literals])];
    mine.contained = [...new Set([...mine.contained, ...v.contained])];
    mine.daysAgo ||= v.daysAgo;
    mine.other ||= v.other;
    mine.fromProfile ||= v.fromProfile;
    mine.unknownSlot ||= v.unknownSlot;
    if (v.group !== null) {
      const known = groupB.get(v.group);
      if (mine.group === null) mine.group = known ?? groupB.set(v.group, nextGroup++).get(v.group)!;
      else if (known === undefined) groupB.set(v.group, mine.group);
    }
  }
  // Grouped values share their group's boundaries and values.
  const groups = new Map<number, Variable[]>();
  for (const v of byCode.values())
    if (v.group !== null) (groups.get(v.group) ?? groups.set(v.group, []).get(v.group)!).push(v);
  for (const members of groups.values()) {
    const bounds = [...new Set(members.flatMap((m) => m.bounds))].sort((x, y) => x - y);
    const literals = [...new Set(members.flatMap((m) => m.literals))];
    for (const m of members) {
      m.bounds = bounds;
      m.literals = literals;
    }
  }
  return [...byCode.values()];
}
