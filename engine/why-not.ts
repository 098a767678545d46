/**
 * Why not: for a recorded turn, the smallest changes that give each other reachable decision,
 * each proven by deciding the turn again with it (`whatIf`) before it is listed. Two families:
 * - data: one value changed (a number or date moved exactly to a rule's boundary, another enum
 *   value, a boolean flipped, a missing value supplied, a value made unknown);
 * - bundle: a rule's operand moved exactly to the turn's value, a rule switched off, a required
 *   parameter made optional.
 * Thresholds are computed from the predicate (the leaf's operator, operand and the value read),
 * never searched; a threshold is listed only when one step less (a unit, a cent, a day) does not
 * give the same decision, so the boundary shown is exact. A decision no single change gives may
 * take two values changed together: pairs of the value changes are tried, and a pair is listed for
 * a decision only no single change reaches, each of its thresholds exact too. The work is capped:
 * at most `WHY_NOT_LIMITS.rules` rules read, `leavesPerRule` leaves each, and a bounded number of
 * candidates of each family, and of pairs, decided again.
 */
import type { Bundle, Condition, ConditionLeaf, Parameter, Rule } from '../src/contract/bundle';
import { applyBundleChange, type BundleChange } from '../src/lib/bundle/change-at-path';
import { isLeaf } from '../src/lib/bundle/normalize';
import { diffOutcomes, turnOutcome } from './impact/diff';
import type { OutcomeDifference } from '../src/contract/impact';
import { epochDayToIso, parseClock, toEpochDay, type Clock } from './clock';
import { compileBundle } from './compile';
import { compileVariant, type CompiledPatch } from './compile-variant';
import { leafParams } from './conditions';
import { ruleLoc, type Path } from './analysis/locate';
import type { CompiledBundle, StagedRule } from './types';
import { isFilled, toBoolean, toNumber } from './values';
import { whatIf, type ValueEdit, type WhatIfInput, type WhatIfOutput } from './what-if';

const WHY_NOT_LIMITS = {
  /** Rule evaluations of the turn read for candidates. */
  rules: 400,
  /** Leaves of one rule's condition read. */
  leavesPerRule: 16,
  /** Value changes decided again (each may cost a second run, for its boundary). */
  dataCandidates: 24,
  /** Bundle changes decided again (each compiles the changed bundle). */
  bundleCandidates: 8,
  /** Other enum values tried for one leaf. */
  enumValues: 3,
  /** Value changes combined in pairs (the first ones tried, in the order of the rules that matter most). */
  pairPool: 6,
  /** Pairs decided again (each may cost two more runs, for its boundaries). */
  pairCandidates: 12,
} as const;

export interface WhyNotItem {
  family: 'data' | 'bundle';
  /** The decision the turn gets with the change (verified). */
  decision: string;
  /** The change in words: `transaction-date on or after 2025-03-07, i.e. ≤ 8 days ago (now 2025-03-05)`. */
  summary: string;
  /** The rule whose predicate gave the change, when one did. */
  rule?: string;
  /** The value change (data family). */
  edit?: ValueEdit;
  /** Two value changes made together (data family), for a decision no single change gives. */
  edits?: ValueEdit[];
  /** The bundle change (bundle family). */
  change?: BundleChange;
  /** For an exact threshold: the value one step short of it, which does not give `decision`. */
  boundary?: { step_back: ValueEdit | BundleChange };
  /** Everything else the change does to this turn: the decision, rule results and tools. */
  differences: OutcomeDifference[];
  /** The reply the turn gets with the change. */
  reply: string;
}

export interface WhyNotOutput {
  decision: string;
  items: WhyNotItem[];
  /** True when a cap left candidates unexamined. */
  capped: boolean;
}

interface Candidate {
  family: 'data' | 'bundle';
  /** How the compiled bundle changes, to derive it rather than compile the changed bundle. */
  patch?: CompiledPatch;
  /** The same for the step back. */
  stepBackPatch?: CompiledPatch;
  summary: string;
  rule?: string;
  edit?: ValueEdit;
  change?: BundleChange;
  stepBack?: ValueEdit | BundleChange;
}

export { applyBundleChange, type BundleChange };

/** Where each of the bundle's rules is, by the id the trace gives it, with its place in the bundle as given. */
function locateRules(
  raw: Bundle,
  compiled: CompiledBundle,
  ids: Set<string>,
): Map<string, { staged: StagedRule; path: Path }> {
  const out = new Map<string, { staged: StagedRule; path: Path }>();
  const toolsKey = Array.isArray((raw as { agent_tools?: unknown }).agent_tools) ? 'agent_tools' : 'tools';
  const rawTools = ((raw as Record<string, unknown>)[toolsKey] ?? []) as { code?: unknown }[];
  const globals = Array.isArray(raw.rules) ? raw.rules : [];
  for (const ct of compiled.tools) {
    const toolAt = rawTools.findIndex((t) => t && t.code === ct.code);
    for (const list of [
      ct.globals,
      ct.pre,
      ct.requiredRules,
      ct.missingInfo,
      ct.success,
      ct.fail,
      ct.summaryMissingInfo,
    ])
      for (const staged of list) {
        if (!ids.has(staged.id) || out.has(staged.id)) continue;
        if (staged.stage === 'global') {
          const byPlace = /^rules\[(\d+)\]$/.exec(staged.id);
          const i = byPlace
            ? Number(byPlace[1])
            : globals.findIndex(
                (r) => r === staged.rule || (r.code !== undefined && r.code === staged.rule.code),
              );
          if (i >= 0) out.set(staged.id, { staged, path: ['rules', i] });
        } else if (toolAt >= 0) out.set(staged.id, { staged, path: ruleLoc(raw, compiled, staged, ct.code) });
      }
    if (out.size === ids.size) break;
  }
  return out;
}

/** The leaves of a condition with their paths, at most `limit`. */
function leavesOf(c: Condition | null | undefined, limit: number): { leaf: ConditionLeaf; path: Path }[] {
  const out: { leaf: ConditionLeaf; path: Path }[] = [];
  const visit = (x: Condition | null | undefined, path: Path): void => {
    if (x == null || out.length >= limit) return;
    if ('all' in x && Array.isArray(x.all)) x.all.forEach((y, i) => visit(y, [...path, 'all', i]));
    else if ('any' in x && Array.isArray(x.any)) x.any.forEach((y, i) => visit(y, [...path, 'any', i]));
    else if ('not' in x && x.not) visit(x.not as Condition, [...path, 'not']);
    else if (isLeaf(x)) out.push({ leaf: x, path });
  };
  visit(c, []);
  return out;
}

const round = (n: number) => Math.round(n * 100) / 100;
const stepFor = (...xs: number[]) => (xs.every((x) => Number.isInteger(x)) ? 1 : 0.01);
const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** A value of the parameter's type to supply when it is missing. */
function sampleValue(p: Parameter, clock: Clock): string | number | boolean {
  const example = p.examples?.[0] ?? p.values?.[0];
  if (example !== undefined) return example;
  if (p.type === 'numeric') return 1;
  if (p.type === 'date') return epochDayToIso(clock.day);
  if (p.type === 'boolean') return true;
  return 'example';
}

/** Value changes that flip one leaf, computed from its operator and operand. */
function dataCandidates(
  leaf: ConditionLeaf,
  rule: string,
  param: Parameter,
  current: unknown,
  clock: Clock,
): Candidate[] {
  const code = param.code;
  const op = leaf.operation ?? 'is_not_empty';
  const out: Candidate[] = [];
  const edit = (value: string | number | boolean): ValueEdit => ({ code, value });
  const now = isFilled(current) ? ` (now ${show(current)})` : ' (now not known)';
  if (op === 'is_empty' || op === 'is_not_empty' || !isFilled(current)) {
    if (isFilled(current))
      out.push({ family: 'data', rule, summary: `${code} not known${now}`, edit: { code, missing: true } });
    else {
      const v = sampleValue(param, clock);
      out.push({ family: 'data', rule, summary: `${code} given, e.g. ${show(v)}`, edit: edit(v) });
    }
    return out;
  }
  const operand = leaf.value;
  if (operand && typeof operand === 'object' && !Array.isArray(operand)) return out; // a {"ref"}: not a literal
  if (op === 'more_than_x_days' || op === 'less_than_x_days' || op === 'exactly_x_days') {
    const day = toEpochDay(current);
    const x = toNumber(operand);
    if (day === undefined || x === undefined || !Number.isInteger(x)) return out;
    const d = clock.day - day;
    const holds = op === 'more_than_x_days' ? d > x : op === 'less_than_x_days' ? d < x : d === x;
    // The target count of days ago, and which way the boundary lies.
    let target: number;
    if (op === 'more_than_x_days') target = holds ? x : x + 1;
    else if (op === 'less_than_x_days') target = holds ? x : x - 1;
    else target = holds ? (d > x ? x + 1 : x - 1) : x;
    const date = epochDayToIso(clock.day - target);
    const back = epochDayToIso(clock.day - target + (target < d ? -1 : 1));
    const words =
      target === d
        ? ''
        : target < d
          ? `on or after ${date}, i.e. ≤ ${target} days ago`
          : `on or before ${date}, i.e. ≥ ${target} days ago`;
    if (op === 'exactly_x_days' && holds) {
      out.push({
        family: 'data',
        rule,
        summary: `${code} ${date}, ${target} days ago${now}`,
        edit: edit(date),
      });
      return out;
    }
    out.push({
      family: 'data',
      rule,
      summary: `${code} ${op === 'exactly_x_days' ? `${date}, ${target} days ago` : words}${now}`,
      edit: edit(date),
      ...(op === 'exactly_x_days' ? {} : { stepBack: edit(back) }),
    });
    return out;
  }
  if (
    ['gt', 'gte', 'lt', 'lte', 'between'].includes(op) &&
    (param.type === 'numeric' || param.type === 'date')
  ) {
    const isDate = param.type === 'date';
    const read = (v: unknown) => (isDate ? toEpochDay(v) : toNumber(v));
    const a = read(current);
    const bounds = (Array.isArray(operand) ? operand : [operand]).map(read);
    if (a === undefined || bounds.some((b) => b === undefined)) return out;
    const step = isDate ? 1 : stepFor(a, ...(bounds as number[]));
    const write = (n: number) => (isDate ? epochDayToIso(n) : round(n));
    const push = (target: number, words: string) =>
      out.push({
        family: 'data',
        rule,
        summary: `${code} ${words} ${show(write(target))}${now}`,
        edit: edit(write(target)),
        stepBack: edit(write(target < a ? target + step : target - step)),
      });
    const t = bounds[0]!;
    const later = isDate ? 'on or after' : 'at least';
    const earlier = isDate ? 'on or before' : 'at most';
    const flips: Record<string, () => [number, string]> = {
      gt: () => (a > t ? [t, earlier] : [round(t + step), later]),
      gte: () => (a >= t ? [round(t - step), earlier] : [t, later]),
      lt: () => (a < t ? [t, later] : [round(t - step), earlier]),
      lte: () => (a <= t ? [round(t + step), later] : [t, earlier]),
    };
    const flip = flips[op];
    if (flip) push(...flip());
    else if (bounds.length >= 2) {
      const lo = Math.min(bounds[0]!, bounds[1]!);
      const hi = Math.max(bounds[0]!, bounds[1]!);
      if (a >= lo && a <= hi) {
        if (a - lo <= hi - a) push(round(lo - step), earlier);
        else push(round(hi + step), later);
      } else if (a < lo) push(lo, later);
      else push(hi, earlier);
    }
    return out;
  }
  if (op === 'eq' || op === 'neq') {
    const targets = Array.isArray(operand) ? operand : [operand];
    if (param.type === 'boolean') {
      const b = toBoolean(current);
      if (b !== undefined)
        out.push({ family: 'data', rule, summary: `${code} ${String(!b)}${now}`, edit: edit(!b) });
      return out;
    }
    if (param.type === 'numeric' || param.type === 'date') {
      const first = targets[0];
      if (typeof first === 'string' || typeof first === 'number')
        out.push({ family: 'data', rule, summary: `${code} ${show(first)}${now}`, edit: edit(first) });
      return out;
    }
    // Text and enums: the operand's values, and other allowed values.
    const pool = [...targets, ...(param.values ?? [])].filter(
      (v): v is string | number =>
        (typeof v === 'string' || typeof v === 'number') && String(v) !== String(current),
    );
    for (const v of [...new Set(pool)].slice(0, WHY_NOT_LIMITS.enumValues))
      out.push({ family: 'data', rule, summary: `${code} ${show(v)}${now}`, edit: edit(v) });
  }
  return out;
}

/** Operand changes that flip one leaf for the turn's value: the operand moved exactly to it. */
function operandCandidate(
  leaf: ConditionLeaf,
  at: Path,
  rule: string,
  param: Parameter,
  current: unknown,
  clock: Clock,
): Candidate | null {
  const op = leaf.operation ?? '';
  const operand = leaf.value;
  if (!isFilled(current) || (typeof operand !== 'number' && typeof operand !== 'string')) return null;
  const path = [...at, 'value'];
  const set = (value: unknown): BundleChange => ({ op: 'set', path, value });
  if (op === 'more_than_x_days' || op === 'less_than_x_days') {
    const day = toEpochDay(current);
    const x = toNumber(operand);
    if (day === undefined || x === undefined) return null;
    const d = clock.day - day;
    const holds = op === 'more_than_x_days' ? d > x : d < x;
    // more_than: holds → window of d days or more; not → d-1 or less. less_than: holds → d or less; not → d+1 or more.
    const target = op === 'more_than_x_days' ? (holds ? d : d - 1) : holds ? d : d + 1;
    if (target < 0) return null;
    const more = target > x;
    return {
      family: 'bundle',
      rule,
      summary: `${rule} with a window of ${target} days or ${more ? 'more' : 'less'} (now ${x})`,
      change: set(target),
      stepBack: set(more ? target - 1 : target + 1),
    };
  }
  if (!['gt', 'gte', 'lt', 'lte'].includes(op) || (param.type !== 'numeric' && param.type !== 'date'))
    return null;
  const isDate = param.type === 'date';
  const read = (v: unknown) => (isDate ? toEpochDay(v) : toNumber(v));
  const a = read(current);
  const t = read(operand);
  if (a === undefined || t === undefined) return null;
  const step = isDate ? 1 : stepFor(a, t);
  const holdsNow = op === 'gt' ? a > t : op === 'gte' ? a >= t : op === 'lt' ? a < t : a <= t;
  // The operand that makes the leaf flip for `a`, nearest the current operand.
  let target: number;
  if (op === 'gt') target = holdsNow ? a : round(a - step);
  else if (op === 'gte') target = holdsNow ? round(a + step) : a;
  else if (op === 'lt') target = holdsNow ? a : round(a + step);
  else target = holdsNow ? round(a - step) : a;
  const write = (n: number) => (isDate ? epochDayToIso(n) : round(n));
  const more = target > t;
  return {
    family: 'bundle',
    rule,
    summary: `${rule} with a threshold of ${show(write(target))} or ${more ? (isDate ? 'later' : 'more') : isDate ? 'earlier' : 'less'} (now ${show(operand)})`,
    change: set(write(target)),
    stepBack: set(write(more ? target - step : target + step)),
  };
}

/** The value at `path`, or undefined. */
function at(node: unknown, path: Path): unknown {
  let here = node;
  for (const key of path) {
    if (!here || typeof here !== 'object') return undefined;
    here = (here as Record<string | number, unknown>)[key];
  }
  return here;
}

export interface WhyNotInput extends Omit<WhatIfInput, 'edits'> {
  /** Leave out the bundle family (a service without the bundle's source, or to save time). */
  dataOnly?: boolean;
}

/** The smallest changes that give the turn another decision, each verified. */
export function whyNot(input: WhyNotInput): WhyNotOutput {
  const base = whatIf({ ...input, edits: [] });
  const baseOutcome = turnOutcome(base.reply, base.trace);
  const decision = base.trace.decision;
  const compiled = compileBundle(input.bundle);
  const clock = parseClock(input.clock);
  const values = (base.state.values ?? {}) as Record<string, unknown>;
  const evaluated = base.trace.rules_evaluated.slice(0, WHY_NOT_LIMITS.rules);
  let capped = base.trace.rules_evaluated.length > evaluated.length;
  const located = locateRules(input.bundle, compiled, new Set(evaluated.map((r) => r.rule_id)));

  const data: Candidate[] = [];
  const bundle: Candidate[] = [];
  // Rules that stopped or paused the turn first: their changes are the ones that matter most.
  const weight = (result: string) => (result === 'allowed' || result === 'not_applicable' ? 1 : 0);
  const ordered = [...evaluated].sort((a, b) => weight(a.result) - weight(b.result));
  for (const ev of ordered) {
    if (ev.rule_id.endsWith('.params.required') && ev.result === 'blocked') {
      const ct = compiled.toolByCode.get(ev.rule_id.slice(0, -'.params.required'.length));
      if (!ct) continue;
      const toolsKey = Array.isArray((input.bundle as { agent_tools?: unknown }).agent_tools)
        ? 'agent_tools'
        : 'tools';
      const rawTools = ((input.bundle as Record<string, unknown>)[toolsKey] ?? []) as { code?: unknown }[];
      const toolAt = rawTools.findIndex((t) => t && t.code === ct.code);
      const rawRequired = (rawTools[toolAt] as { config?: { params?: { required?: unknown[] } } } | undefined)
        ?.config?.params?.required;
      ct.required.forEach((entry) => {
        const group = typeof entry === 'string' ? [entry] : entry;
        const i = Array.isArray(rawRequired) ? rawRequired.indexOf(entry) : -1;
        if (group.some((c) => isFilled(values[c]))) return;
        const p = compiled.params.get(group[0]!);
        if (p) {
          const v = sampleValue(p, clock);
          data.push({
            family: 'data',
            rule: ev.rule_id,
            summary: `${p.code} given, e.g. ${show(v)}`,
            edit: { code: p.code, value: v },
          });
        }
        if (toolAt >= 0 && i >= 0)
          bundle.push({
            family: 'bundle',
            rule: ev.rule_id,
            summary: `${group.join(' or ')} optional for ${ct.code}`,
            change: { op: 'remove', path: [toolsKey, toolAt, 'config', 'params', 'required', i] },
            patch: { tool: ct.code, required: ct.required.filter((r) => r !== entry) },
          });
      });
      continue;
    }
    const place = located.get(ev.rule_id);
    if (!place) continue;
    const sameRule = (at(input.bundle, [...place.path, 'code']) ?? null) === (place.staged.rule.code ?? null);
    if (
      sameRule &&
      (ev.result === 'blocked' || ev.result === 'requires_confirmation' || ev.result === 'error')
    )
      bundle.push({
        family: 'bundle',
        rule: ev.rule_id,
        summary: `${ev.rule_id} switched off`,
        change: { op: 'remove', path: place.path },
        patch: { rule: place.staged, replacement: null },
      });
    for (const { leaf, path } of leavesOf(place.staged.rule.when, WHY_NOT_LIMITS.leavesPerRule)) {
      if (leaf.reads_message === true || leaf.method === 'number_of_entities') continue;
      const code = leafParams(leaf).codes[0];
      const param = code === undefined ? undefined : compiled.params.get(code);
      if (!param || param.usage === 'computed') continue;
      data.push(...dataCandidates(leaf, ev.rule_id, param, values[param.code], clock));
      const operand = operandCandidate(
        leaf,
        [...place.path, 'when', ...path],
        ev.rule_id,
        param,
        values[param.code],
        clock,
      );
      // The operand is changed in the bundle as given; the same leaf must be there.
      if (operand && at(input.bundle, [...place.path, 'when', ...path, 'value']) === leaf.value) {
        const ruleAt = (c: BundleChange | undefined): CompiledPatch | undefined =>
          c?.op === 'set'
            ? {
                rule: place.staged,
                replacement: applyBundleChange(place.staged.rule, {
                  ...c,
                  path: c.path.slice(place.path.length),
                }) as Rule,
              }
            : undefined;
        const patch = ruleAt(operand.change);
        const stepBackPatch = ruleAt(operand.stepBack as BundleChange | undefined);
        bundle.push({ ...operand, ...(patch ? { patch } : {}), ...(stepBackPatch ? { stepBackPatch } : {}) });
      }
    }
  }

  const items: WhyNotItem[] = [];
  const seen = new Set<string>();
  const decide = (c: {
    edit?: ValueEdit | undefined;
    change?: BundleChange | undefined;
    patch?: CompiledPatch | undefined;
  }): WhatIfOutput | null => {
    try {
      if (!c.change) return whatIf({ ...input, edits: c.edit ? [c.edit] : [] });
      const changed = applyBundleChange(input.bundle, c.change);
      if (c.patch) compileVariant(changed, compiled, c.patch);
      return whatIf({ ...input, bundle: changed, edits: [] });
    } catch {
      return null; // a change the engine refuses (a value of the wrong type, a bundle it cannot run) is no answer
    }
  };
  /** The value changes decided alone without being refused or overridden, for pairs. */
  const pairable: Candidate[] = [];
  const tryAll = (candidates: Candidate[], cap: number) => {
    let tried = 0;
    for (const c of candidates) {
      const key = JSON.stringify(c.edit ?? c.change);
      if (seen.has(key)) continue;
      seen.add(key);
      if (tried >= cap) {
        capped = true;
        break;
      }
      tried += 1;
      const out = decide(c);
      if (out && out.overridden.length === 0 && c.edit) pairable.push(c);
      if (!out || out.overridden.length > 0 || out.trace.decision === decision) continue;
      if (c.stepBack) {
        const back = decide(
          'op' in c.stepBack ? { change: c.stepBack, patch: c.stepBackPatch } : { edit: c.stepBack },
        );
        if (!back || back.trace.decision === out.trace.decision) continue; // not the exact boundary
      }
      items.push({
        family: c.family,
        decision: out.trace.decision,
        summary: c.summary,
        ...(c.rule ? { rule: c.rule } : {}),
        ...(c.edit ? { edit: c.edit } : {}),
        ...(c.change ? { change: c.change } : {}),
        ...(c.stepBack ? { boundary: { step_back: c.stepBack } } : {}),
        differences: diffOutcomes(baseOutcome, turnOutcome(out.reply, out.trace)),
        reply: out.reply,
      });
    }
  };
  tryAll(data, WHY_NOT_LIMITS.dataCandidates);
  if (tryPairs(pairable, decision, items, input, baseOutcome)) capped = true;
  if (!input.dataOnly) tryAll(bundle, WHY_NOT_LIMITS.bundleCandidates);
  // Fewest other differences first within each family: the smallest change.
  items.sort(
    (a, b) =>
      (a.family === b.family ? 0 : a.family === 'data' ? -1 : 1) ||
      a.differences.length - b.differences.length,
  );
  return { decision, items, capped };
}

/** Decided again with several value changes together; null when the engine refuses them. */
function decideEdits(input: WhyNotInput, edits: ValueEdit[]): WhatIfOutput | null {
  try {
    return whatIf({ ...input, edits });
  } catch {
    return null;
  }
}

/**
 * Pairs of value changes for the decisions no single change gives: each pair of the first
 * `pairPool` changes (two different values) is decided again, at most `pairCandidates` of them; a
 * pair is kept when it gives such a decision and, for each of its thresholds, one step less with
 * the other change kept does not (the boundaries are exact). One pair a decision, the one that
 * changes the least. Returns true when the cap left pairs untried.
 */
function tryPairs(
  pool: readonly Candidate[],
  decision: string,
  items: WhyNotItem[],
  input: WhyNotInput,
  baseOutcome: ReturnType<typeof turnOutcome>,
): boolean {
  const reached = new Set([decision, ...items.map((i) => i.decision)]);
  const changes = pool.slice(0, WHY_NOT_LIMITS.pairPool);
  const best = new Map<string, WhyNotItem>();
  let tried = 0;
  for (let i = 0; i < changes.length; i++)
    for (let j = i + 1; j < changes.length; j++) {
      const a = changes[i]!;
      const b = changes[j]!;
      if (a.edit!.code === b.edit!.code) continue;
      if (tried >= WHY_NOT_LIMITS.pairCandidates) return true;
      tried += 1;
      const out = decideEdits(input, [a.edit!, b.edit!]);
      if (!out || out.overridden.length > 0 || reached.has(out.trace.decision)) continue;
      const exact = [
        [a, b],
        [b, a],
      ].every(([x, y]) => {
        if (!x!.stepBack || 'op' in x!.stepBack) return true;
        const back = decideEdits(input, [x!.stepBack, y!.edit!]);
        return back !== null && back.trace.decision !== out.trace.decision;
      });
      if (!exact) continue;
      const item: WhyNotItem = {
        family: 'data',
        decision: out.trace.decision,
        summary: `${a.summary} and ${b.summary}`,
        edits: [a.edit!, b.edit!],
        differences: diffOutcomes(baseOutcome, turnOutcome(out.reply, out.trace)),
        reply: out.reply,
      };
      const kept = best.get(item.decision);
      if (!kept || item.differences.length < kept.differences.length) best.set(item.decision, item);
    }
  items.push(...best.values());
  return false;
}
