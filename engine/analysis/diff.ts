/**
 * The semantic diff of two bundles of one agent: per tool, every region (of the values either
 * bundle's rules read, cut by the boundaries of both) decided by the engine with each bundle, and
 * the regions whose decision, deciding rules, tools invoked or reply differ, merged into ranges and
 * each given a witness. "Equivalent" only when every region of every tool was decided alike, with
 * nothing capped and nothing left unanalysed: proved by exhausting the regions, never sampled.
 */
import {
  ANALYSIS_LIMITS,
  type DiffResult,
  type Difference,
  type NotAnalysed,
} from '../../src/contract/analysis';
import type { Bundle } from '../../src/contract/bundle';
import { canonicalJson } from '../../src/lib/bundle/hash';
import { parseClock } from '../clock';
import { compileBundle } from '../compile';
import { conditionReads } from '../conditions';
import type { CompiledBundle, CompiledTool } from '../types';
import { looseEquals } from '../values';
import { decideAt, sameOutcome, sideOf, startingValues, type Decided } from './decide';
import { regionsOf, regionWords, valuesAt, type Unit } from './regions';
import { affordable, mergeVariables, newBudget, sample, unitsFor } from './tool-regions';
import { sharedPresence } from './presence';
import { rulesOf } from './rules-of';
import { toolScope } from './variables';
import { witnessOf } from './witness';

const ABSENT = { decision: 'no such tool', rules: [], tools_invoked: [], reply: '' };

export function diff(base: Bundle, head: Bundle, clock: string): DiffResult {
  const cb = compileBundle(base);
  const ch = compileBundle(head);
  if (canonicalJson(cb.bundle) === canonicalJson(ch.bundle))
    return { equivalent: true, differences: [], capped: false, not_analysed: [], regions: 0 };
  const clk = parseClock(clock);
  const budget = newBudget();
  const differences: Difference[] = [];
  const notAnalysed: NotAnalysed[] = [];
  let capped = false;
  let regions = 0;
  const codes = [...new Set([...ch.tools, ...cb.tools].filter((t) => t.enabled).map((t) => t.code))];
  for (const code of codes) {
    const tb = enabled(cb, code);
    const th = enabled(ch, code);
    if (!tb || !th) {
      const present = (th ?? tb)!;
      const d = decideAt(th ? head : base, present, {}, clock);
      regions += 1;
      differences.push({
        tool: code,
        region: {
          words: `any request for ${code} (${th ? 'added or enabled' : 'removed or disabled'})`,
          parts: [],
        },
        points: 1,
        before: tb ? sideOf(d) : ABSENT,
        after: th ? sideOf(d) : ABSENT,
        witness: witnessOf(th ? head : base, th ? ch : cb, present, {}, clock, d),
      });
      continue;
    }
    const sb = toolScope(cb, tb, clk, startingValues(base, clock));
    const sh = toolScope(ch, th, clk, startingValues(head, clock));
    notAnalysed.push(...sb.notAnalysed, ...sh.notAnalysed);
    const units = unitsFor(
      mergeVariables(sb.variables, sh.variables),
      sharedPresence(sb.presence, sh.presence),
    );
    const n = affordable(units, budget, 2);
    // Past the caps, the regions of the values the changed rules read are searched, the other
    // values given (their first region) and not given: what differs there is real, but more may.
    const focus = n === null ? focusOf(units, changedReads(tb, th), budget) : null;
    if (n === null) {
      capped = true;
      notAnalysed.push({
        tool: code,
        reason:
          focus === null
            ? `${code} has more regions than the diff decides (${ANALYSIS_LIMITS.regionsPerTool} per tool, ${ANALYSIS_LIMITS.regions} in all, both bundles counted): not compared`
            : `${code} has more regions than the diff decides: only the values its changed rules read were varied (the others given or not given, as in each witness), so other differences may exist`,
      });
      if (focus === null) continue;
    }
    const choices = focus ? focusedRegions(units, focus) : regionsOf(units);
    const differing: {
      choice: number[];
      before: Decided;
      after: Decided;
      values: Record<string, unknown>;
    }[] = [];
    for (const choice of choices) {
      regions++;
      const values = valuesAt(units, choice);
      const before = decideAt(base, tb, values, clock);
      const after = decideAt(head, th, values, clock);
      if (!sameOutcome(before, after)) differing.push({ choice, before, after, values });
    }
    const groups = new Map<string, typeof differing>();
    for (const d of differing) {
      // Alike when they change the same way; a reply that differs counts, not its filled-in values.
      const key = JSON.stringify([
        ...[d.before, d.after].map((x) => [x.decision, x.deciding, [...x.invoked].sort()]),
        d.before.reply === d.after.reply,
      ]);
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(d);
    }
    for (const members of groups.values()) {
      for (const box of mergeBoxes(
        units,
        members.map((m) => m.choice),
      )) {
        const inBox = members.filter((m) => box.every((set, u) => set.includes(m.choice[u]!)));
        // The witness a user can say best: one where the profile's values are the profile's own.
        const profile = startingValues(head, clock);
        const first =
          inBox.find((m) =>
            Object.keys(profile).every(
              (code) => !(code in m.values) || looseEquals(profile[code], m.values[code]),
            ),
          ) ?? inBox[0]!;
        differences.push({
          tool: code,
          region: focus ? focusedWords(units, box, focus, clk) : regionWords(units, box, clk, sample),
          points: box.reduce((p, s) => p * s.length, 1),
          before: sideOf(first.before),
          after: sideOf(first.after),
          witness: witnessOf(head, ch, th, first.values, clock, first.after, {
            bundle: base,
            compiled: cb,
            tool: tb,
            decided: first.before,
          }),
        });
      }
    }
  }
  const seen = new Set<string>();
  const unanalysed = notAnalysed.filter((x) => {
    const key = JSON.stringify(x);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  return {
    equivalent: differences.length === 0 && !capped && unanalysed.length === 0,
    differences: differences.slice(0, ANALYSIS_LIMITS.items),
    capped: capped || differences.length > ANALYSIS_LIMITS.items,
    not_analysed: unanalysed,
    regions,
  };
}

/** The codes the rules that differ between the two tools read (a rule added, removed, changed or moved). */
function changedReads(a: CompiledTool, b: CompiledTool): Set<string> {
  const list = (t: CompiledTool) => rulesOf(t).map((r) => [r.id, JSON.stringify(r.rule)] as const);
  const before = list(a);
  const after = list(b);
  const same = (x: readonly [string, string], i: number, other: (readonly [string, string])[]) =>
    other[i]?.[0] === x[0] && other[i]?.[1] === x[1];
  const changed = [
    ...before.filter((x, i) => !same(x, i, after)).map((x) => rulesOf(a).find((r) => r.id === x[0])!),
    ...after.filter((x, i) => !same(x, i, before)).map((x) => rulesOf(b).find((r) => r.id === x[0])!),
  ];
  return new Set(changed.flatMap((r) => conditionReads(r.rule.when)));
}

/** The units a capped tool's search varies (those reading `codes`), if their regions fit the caps. */
function focusOf(units: Unit[], codes: Set<string>, budget: { left: number }): Set<number> | null {
  const focus = new Set<number>();
  units.forEach((u, i) => {
    if (u.variables.some((v) => codes.has(v.code))) focus.add(i);
  });
  let n = 2;
  for (const i of focus) n *= units[i]!.choices.length;
  if (n > ANALYSIS_LIMITS.regionsPerTool || 2 * n > budget.left) return null;
  budget.left -= 2 * n;
  return focus;
}

/** Every region of the focused units, the others at their first choice, then at their last (not given). */
function* focusedRegions(units: Unit[], focus: Set<number>): Generator<number[]> {
  const inner = units.filter((_, i) => focus.has(i));
  for (const rest of ['first', 'last'] as const)
    for (const c of inner.length ? regionsOf(inner) : [[]]) {
      let k = 0;
      yield units.map((u, i) => (focus.has(i) ? c[k++]! : rest === 'first' ? 0 : u.choices.length - 1));
    }
}

/** A focused region in words: the varied values' part, the others as in the witness. */
function focusedWords(
  units: Unit[],
  box: number[][],
  focus: Set<number>,
  clock: ReturnType<typeof parseClock>,
) {
  const picks = box.map((set, i) => (focus.has(i) ? set : units[i]!.choices.map((_, c) => c)));
  const region = regionWords(units, picks, clock, sample);
  return { ...region, words: `${region.words} (the other values as in the witness)` };
}

function enabled(compiled: CompiledBundle, code: string): CompiledTool | undefined {
  const t = compiled.toolByCode.get(code);
  return t?.enabled ? t : undefined;
}

/**
 * Regions (one choice per unit) merged into boxes (a set of choices per unit) covering exactly
 * them: along each unit of one value, regions alike elsewhere merge, in runs of neighbouring slots
 * for a value on a line (a number, a date), in any set for the others.
 */
function mergeBoxes(units: Unit[], choices: number[][]): number[][][] {
  let boxes: number[][][] = choices.map((c) => c.map((x) => [x]));
  for (let pass = 0; pass < 4; pass++) {
    const before = boxes.length;
    boxes = mergePass(units, boxes);
    if (boxes.length === before) break;
  }
  return boxes;
}

/** One pass of `mergeBoxes`: along each unit in turn. */
function mergePass(units: Unit[], start: number[][][]): number[][][] {
  let boxes = start;
  units.forEach((unit, u) => {
    if (unit.variables.length !== 1) return;
    const ordered = unit.variables[0]!.axis === 'number' || unit.variables[0]!.axis === 'date';
    const byRest = new Map<string, number[][][]>();
    for (const b of boxes) {
      const key = JSON.stringify(b.filter((_, i) => i !== u));
      (byRest.get(key) ?? byRest.set(key, []).get(key)!).push(b);
    }
    const next: number[][][] = [];
    for (const same of byRest.values()) {
      const union = [...new Set(same.flatMap((b) => b[u]!))].sort((a, b) => a - b);
      const unknown = unit.choices.findIndex((c) => c.slots[0]!.order === -1);
      const runs: number[][] = [];
      if (!ordered || union.length === unit.choices.length) runs.push(union);
      else
        for (const x of union) {
          const run = runs[runs.length - 1];
          if (run && x === run[run.length - 1]! + 1 && x !== unknown) run.push(x);
          else runs.push([x]);
        }
      for (const run of runs) next.push(same[0]!.map((set, i) => (i === u ? run : set)));
    }
    boxes = next;
  });
  return boxes;
}
