/**
 * The values a tool's run reads, and the boundaries its conditions draw on each: every literal
 * operand and every `{"ref"}` gives a boundary (numbers and dates), a day window gives a date
 * relative to the clock, each enum or text literal a value of its own, a boolean its two values,
 * and any other read only "known or not". What cannot be partitioned this way (a condition on the
 * message itself, a count of entities, a computed value whose formula is not followed) is listed
 * as not analysed, never guessed. Pure; linear in the tool's conditions.
 */
import type { Condition, ConditionLeaf, Parameter } from '../../src/contract/bundle';
import type { NotAnalysed } from '../../src/contract/analysis';
import { isLeaf } from '../../src/lib/bundle/normalize';
import type { Clock } from '../clock';
import { toEpochDay } from '../clock';
import { leafParams } from '../conditions';
import { activationTarget, isActivating } from '../rules';
import type { CompiledBundle, CompiledTool, StagedRule } from '../types';
import { toBoolean, toNumber } from '../values';
import { integrationReads } from './integration-reads';
import { presenceOnly } from './presence';
import { rulesOf } from './rules-of';
import { crossings, followOf, formulasOf, isComputed, type Follow } from './computed';

export type Axis = 'number' | 'date' | 'value' | 'boolean' | 'known';

export interface Variable {
  code: string;
  axis: Axis;
  /** Numbers, or dates as days since 1970-01-01: the boundaries, ascending, each once. */
  bounds: number[];
  /** True when a day window reads it: its region is said in days before the clock. */
  daysAgo: boolean;
  /** Text or enum values compared by equality, each once. */
  literals: string[];
  /** Texts looked for inside the value (`contains`, `not_contains`). */
  contained: string[];
  /** Whether an "any other value" region exists (false for an enum, whose values are all listed). */
  other: boolean;
  /** Whether the user profile gives the value (its "not given" region is the profile's value). */
  fromProfile: boolean;
  /**
   * Whether "not given" is a region of its own: always, but for a profile value of the value's
   * type, which falls in one of the other regions (the partition is exact).
   */
  unknownSlot: boolean;
  /** A filled value for the "known" axis. */
  sample: unknown;
  /** Variables compared with each other through `{"ref"}` share a group (its index). */
  group: number | null;
}

/** Everything one tool's run reads: its own rules, the global rules on it, and the tools it activates. */
export interface ToolScope {
  tool: CompiledTool;
  /** The tools that run in this scope, the tool first. */
  tools: CompiledTool[];
  /** Every rule of those tools, in evaluation order per tool. */
  rules: { staged: StagedRule; tool: string }[];
  variables: Variable[];
  /** What the regions do not tell apart: a difference there could go unseen. */
  notAnalysed: NotAnalysed[];
  /**
   * Requirements of the tool that only their presence reads (no condition, formula, integration,
   * message or other tool reads them), in the order the tool requires them: only which of them is
   * the first one missing changes the outcome (presence.ts).
   */
  presence: string[];
  /** Computed parameters followed through their formula: computed code → the input it is monotone in. */
  followed: Map<string, string>;
}

/** Values compared with each other are placed jointly, in every order: at most this many together. */
const MAX_GROUP = 4;

/** At most this many texts looked for inside one value (their combinations are regions: 2^n). */
const MAX_CONTAINED = 4;

const DAY_WINDOWS = new Set(['more_than_x_days', 'less_than_x_days', 'exactly_x_days']);

const AXIS_OF: Record<string, Axis> = {
  numeric: 'number',
  date: 'date',
  boolean: 'boolean',
  enum: 'value',
  string: 'value',
};

/** Every leaf of a condition, in order. */
function leavesOf(c: Condition | null | undefined, out: ConditionLeaf[] = []): ConditionLeaf[] {
  if (c == null) return out;
  if ('all' in c && Array.isArray(c.all)) for (const x of c.all) leavesOf(x, out);
  else if ('any' in c && Array.isArray(c.any)) for (const x of c.any) leavesOf(x, out);
  else if ('not' in c && c.not) leavesOf(c.not as Condition, out);
  else if (isLeaf(c)) out.push(c);
  return out;
}

const isRef = (v: unknown): v is { ref: string } =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { ref?: unknown }).ref === 'string';

function sampleOf(p: Parameter | undefined): unknown {
  const example = p?.examples?.[0] ?? p?.values?.[0];
  if (example !== undefined) return example;
  switch (p?.type) {
    case 'numeric':
      return 1;
    case 'date':
      return '2025-01-01';
    case 'boolean':
      return true;
    case 'object':
      return { value: 'x' };
    case 'array':
    case 'list_of_objects':
      return ['x'];
    case 'enum':
    case 'string':
    case undefined:
      return 'x';
  }
}

/** The tools a tool's rules activate, the tool first, each once (depth-first, as they run). */
function toolClosure(compiled: CompiledBundle, root: CompiledTool): CompiledTool[] {
  const seen = new Set<string>([root.code]);
  const out: CompiledTool[] = [root];
  for (let i = 0; i < out.length; i++) {
    for (const r of rulesOf(out[i]!)) {
      if (!isActivating(r) && r.rule.then?.action !== 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL') continue;
      const target = activationTarget(r, compiled).code;
      if (target === undefined || seen.has(target)) continue;
      seen.add(target);
      out.push(compiled.toolByCode.get(target)!);
    }
  }
  return out;
}

/** Whether a value is one a region of `v` holds (its type's), rather than missing or bad. */
function ofItsAxis(v: Variable, value: unknown): boolean {
  switch (v.axis) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'date':
      return typeof value === 'string' && toEpochDay(value) !== undefined;
    case 'boolean':
      return typeof value === 'boolean';
    case 'value':
      return typeof value === 'string' && (v.other || v.literals.includes(value));
    case 'known':
      return false;
  }
}

/** The scope of one tool: what its run reads and the boundaries drawn on each value. */
export function toolScope(
  compiled: CompiledBundle,
  tool: CompiledTool,
  clock: Clock,
  /** The values a new request starts with (the user profile's). */
  profile: Readonly<Record<string, unknown>> = {},
): ToolScope {
  const tools = toolClosure(compiled, tool);
  const rules = tools.flatMap((t) => rulesOf(t).map((staged) => ({ staged, tool: t.code })));
  const required = tools.flatMap((t) => [...t.required.flat(), ...t.optional]);
  const integrations = [
    ...tools.flatMap((t) => (t.tool.integrations ?? []).map((i) => i?.code)),
    ...rules.map((r) =>
      r.staged.rule.then?.action === 'API' ? r.staged.rule.then.settings?.integration : undefined,
    ),
  ].filter((c): c is string => typeof c === 'string');
  const reads = integrationReads(compiled, integrations);
  const { readByConditions, ...scope } = variablesOf(
    compiled,
    tool.code,
    rules,
    [...required, ...reads.present],
    clock,
    reads.matched,
  );
  const elsewhere = new Set([
    ...readByConditions,
    ...reads.present,
    ...reads.matched.keys(),
    ...tools.slice(1).flatMap((t) => [...t.required.flat(), ...t.optional]),
  ]);
  const presence = presenceOnly(compiled, tool, elsewhere).filter((code) =>
    scope.variables.some((v) => v.code === code),
  );
  for (const v of scope.variables) if (v.fromProfile) v.unknownSlot = !ofItsAxis(v, profile[v.code]);
  return { tool, tools, rules, ...scope, presence };
}

/**
 * The values `rules` read (and the `present` ones, read as known or not), with the boundaries
 * their conditions draw, for the regions of `toolCode`.
 */
export function variablesOf(
  compiled: CompiledBundle,
  toolCode: string,
  rules: readonly { staged: StagedRule }[],
  present: readonly string[],
  clock: Clock,
  /** Values matched by equality against an integration's canned answer (integration-reads.ts). */
  matched: ReadonlyMap<string, readonly (string | number)[]> = new Map(),
): Pick<ToolScope, 'variables' | 'notAnalysed' | 'followed'> & { readByConditions: Set<string> } {
  const tool = { code: toolCode };
  const byCode = new Map<string, Variable>();
  /** Codes a condition reads (as its subject or through a ref). */
  const readByConditions = new Set<string>();
  const notAnalysed: NotAnalysed[] = [];
  const followed = new Map<string, string>();
  /** Computed code → the literal operands compared with it, to be moved onto its input. */
  const computedBounds = new Map<string, { follow: Follow; bounds: number[] }>();
  const groupOf = new Map<string, string>(); // union-find over ref-linked codes

  const find = (c: string): string => {
    let r = c;
    while (groupOf.has(r) && groupOf.get(r) !== r) r = groupOf.get(r)!;
    return r;
  };
  const variable = (code: string): Variable => {
    let v = byCode.get(code);
    if (!v) {
      const p = compiled.params.get(code);
      v = {
        code,
        axis: AXIS_OF[p?.type ?? ''] ?? 'known',
        bounds: [],
        daysAgo: false,
        literals: [],
        contained: [],
        other: !(p?.type === 'enum' && Array.isArray(p.values) && p.values.length > 0),
        fromProfile: compiled.profileParams.has(code) && compiled.profileIntegrations.length > 0,
        unknownSlot: true,
        sample: sampleOf(p),
        group: null,
      };
      if (p?.type === 'enum') for (const x of p.values ?? []) v.literals.push(String(x));
      byCode.set(code, v);
    }
    return v;
  };
  /** The variable a read lands on: the value itself, or the input of a computed value followed. */
  const read = (code: string, rule: string): Variable | null => {
    if (!isComputed(compiled, code)) return variable(code);
    const follow = followOf(compiled, code);
    if ('why' in follow) {
      notAnalysed.push({
        tool: tool.code,
        rule,
        param: code,
        reason: `${code} is computed and not followed: ${follow.why}`,
      });
      return null;
    }
    if (follow.line !== null) {
      followed.set(code, follow.line);
      variable(follow.line);
    }
    for (const f of follow.finite) {
      const v = variable(f.code);
      if (v.axis === 'value') v.literals.push(...f.values.map(String));
    }
    if (formulasOf(compiled, code).some((f) => /\bround\s*\(/.test(f)))
      notAnalysed.push({
        tool: tool.code,
        rule,
        param: code,
        reason: `${code}'s formula rounds: values within one rounding step of a boundary are not told apart`,
      });
    if (!computedBounds.has(code)) computedBounds.set(code, { follow, bounds: [] });
    return null;
  };
  const bound = (v: Variable, x: unknown) => {
    const n = v.axis === 'date' ? toEpochDay(x) : toNumber(x);
    if (n !== undefined && Number.isFinite(n)) v.bounds.push(n);
  };

  for (const code of present) if (!isComputed(compiled, code)) variable(code);
  for (const [code, values] of matched) {
    if (isComputed(compiled, code) || !compiled.params.has(code)) continue;
    const v = variable(code);
    for (const x of values) {
      if (v.axis === 'number' || v.axis === 'date') bound(v, x);
      else if (v.axis === 'value') v.literals.push(String(x));
    }
  }
  for (const { staged } of rules) {
    for (const leaf of leavesOf(staged.rule.when)) {
      if (leaf.reads_message === true || leaf.method === 'number_of_entities') {
        notAnalysed.push({
          tool: tool.code,
          rule: staged.id,
          reason:
            leaf.reads_message === true
              ? 'it reads the message itself, which the regions of values do not tell apart'
              : 'it counts entities, which the regions of values do not tell apart',
        });
        continue;
      }
      const op = leaf.operation ?? 'is_not_empty';
      const operands = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
      for (const ref of operands) if (isRef(ref)) readByConditions.add(ref.ref);
      for (const code of leafParams(leaf).codes) {
        readByConditions.add(code);
        const v = read(code, staged.id);
        if (v === null) {
          // A computed value followed: its operands become boundaries on its input, below.
          const follow = computedBounds.get(code);
          for (const operand of operands) {
            const n = toNumber(operand);
            if (follow && n !== undefined) follow.bounds.push(n);
            else if (follow && (isRef(operand) || DAY_WINDOWS.has(op)))
              notAnalysed.push({
                tool: tool.code,
                rule: staged.id,
                param: code,
                reason: `${code} is computed, and only its comparisons with numbers are followed to its input`,
              });
          }
          continue;
        }
        for (const operand of operands) {
          if (isRef(operand)) {
            const other = read(operand.ref, staged.id);
            if (other === null) continue;
            const a = find(v.code);
            const b = find(other.code);
            groupOf.set(a, a);
            groupOf.set(b, a);
            continue;
          }
          if (DAY_WINDOWS.has(op)) {
            const x = toNumber(operand);
            if (v.axis === 'date' && x !== undefined) {
              v.bounds.push(clock.day - x);
              v.daysAgo = true;
            }
            continue;
          }
          if (
            op === 'is_empty' ||
            op === 'is_not_empty' ||
            op === 'any_have_value' ||
            op === 'all_have_value'
          )
            continue;
          if (operand === null || operand === undefined) continue;
          if (v.axis === 'number' || v.axis === 'date') bound(v, operand);
          else if (v.axis === 'boolean') void toBoolean(operand);
          else if (v.axis === 'value') {
            if (op === 'contains' || op === 'not_contains') v.contained.push(String(operand));
            else if (op === 'about') {
              notAnalysed.push({
                tool: tool.code,
                rule: staged.id,
                param: code,
                reason: `"about" matches words loosely, so the regions of ${code} are not exact`,
              });
              v.literals.push(String(operand));
            } else v.literals.push(String(operand));
          }
        }
      }
    }
  }
  // A computed value followed: where it crosses each operand, as boundaries on its number or date input.
  for (const [code, { follow, bounds }] of computedBounds) {
    if (follow.line === null) continue;
    const input = byCode.get(follow.line)!;
    const at = crossings(compiled, tool.code, code, follow, bounds, clock, input.axis === 'date');
    if (at === null) {
      notAnalysed.push({
        tool: tool.code,
        param: code,
        reason: `${code}'s formula is not a straight line in ${follow.line}, so its regions are not followed`,
      });
      continue;
    }
    input.bounds.push(...at);
  }
  // Ref groups: their members share one axis and every member's boundaries.
  const groups = new Map<string, Variable[]>();
  for (const v of byCode.values()) {
    if (!groupOf.has(v.code)) continue;
    const root = find(v.code);
    (groups.get(root) ?? groups.set(root, []).get(root)!).push(v);
  }
  let g = 0;
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    if (members.length > MAX_GROUP) {
      notAnalysed.push({
        tool: tool.code,
        param: members[0]!.code,
        reason: `${members.map((m) => m.code).join(', ')} are compared with each other; more than ${MAX_GROUP} values compared together are not placed jointly`,
      });
      continue;
    }
    const axis = members[0]!.axis;
    const bounds = members.flatMap((m) => m.bounds);
    const literals = members.flatMap((m) => m.literals);
    for (const m of members) {
      if (m.axis !== axis) {
        notAnalysed.push({
          tool: tool.code,
          param: m.code,
          reason: `${m.code} is compared with a value of another type, so their regions are not followed`,
        });
        continue;
      }
      m.bounds = [...bounds];
      m.literals = [...literals];
      m.daysAgo = members.some((x) => x.daysAgo);
      m.group = g;
    }
    g++;
  }
  for (const v of byCode.values()) {
    v.bounds = [...new Set(v.bounds)].sort((a, b) => a - b);
    v.literals = [...new Set(v.literals)];
    v.contained = [...new Set(v.contained)];
    if (v.contained.length > MAX_CONTAINED) {
      notAnalysed.push({
        tool: tool.code,
        param: v.code,
        reason: `${v.code} is searched for more than ${MAX_CONTAINED} texts; their combinations are not all decided`,
      });
      v.contained = v.contained.slice(0, MAX_CONTAINED);
    }
  }
  return { variables: [...byCode.values()], notAnalysed, followed, readByConditions };
}
