/**
 * Condition groups: evaluation against the conversation's values, and rendering as a readable
 * predicate (`days_since(transaction-date) > 8`). Each evaluation explains itself with the actual
 * values it read, and says whether it could be decided on known values.
 */
import type { Condition, ConditionLeaf } from '../src/contract/bundle';
import { isLeaf } from '../src/lib/bundle/normalize';
import { lookupTable } from '../src/lib/bundle/lookup';
import { spend } from '../src/lib/bundle/work-budget';
import { daysSince, toEpochDay, type Clock } from './clock';
import { contentStems } from './text';
import type { CompiledBundle, Values } from './types';
import { isFilled, looseEquals, normText, showValue, toBoolean, toNumber } from './values';

export interface ConditionContext {
  compiled: CompiledBundle;
  values: Values;
  /** Values extracted from the current message. */
  current: Values;
  message: string;
  clock: Clock;
  /** Computed parameters whose formula failed on known values, with why: a rule reading one is an error. */
  failed?: Readonly<Record<string, string>>;
}

export interface ConditionResult {
  holds: boolean;
  /** False when the outcome rests on a value that is not known yet. */
  known: boolean;
  reason: string;
  /** Parameter codes the condition reads. */
  reads: string[];
  /** Set when the condition could not be evaluated (values of incompatible types): it neither holds nor fails. */
  error?: string;
}

const OP_SYMBOL = lookupTable({ eq: '=', neq: '!=', gt: '>', lt: '<', gte: '>=', lte: '<=' });
const DAY_OPS = lookupTable({ more_than_x_days: '>', less_than_x_days: '<', exactly_x_days: '=' });

/** The parameter codes a leaf reads, and the entity it names (if any). */
export function leafParams(leaf: ConditionLeaf): { codes: string[]; entity?: string } {
  const p = leaf.params;
  if (typeof p === 'string') return { codes: [p] };
  if (Array.isArray(p)) return { codes: p.filter((x): x is string => typeof x === 'string') };
  if (p && typeof p === 'object') {
    const rec = p;
    const entity = typeof rec.entity === 'string' ? rec.entity : undefined;
    const one = rec.param ?? rec.parameter ?? rec.code;
    const many = rec.params ?? rec.parameters;
    const codes =
      typeof one === 'string'
        ? [one]
        : Array.isArray(many)
          ? many.filter((x): x is string => typeof x === 'string')
          : [];
    return entity !== undefined ? { codes, entity } : { codes };
  }
  return { codes: [] };
}

function subjectName(leaf: ConditionLeaf): string {
  const { codes, entity } = leafParams(leaf);
  if (leaf.reads_message === true) return 'message';
  const names = codes.length ? codes.join(', ') : '?';
  switch (leaf.method) {
    case 'entity_param':
    case 'entity_param_value':
    case 'entity_param_referenced':
      return entity ? codes.map((c) => `${entity}.${c}`).join(', ') || entity : names;
    case 'param_extracted_current':
      return `extracted(${names})`;
    case 'number_of_entities':
      return `count(${entity ?? names})`;
    default:
      return names;
  }
}

function showOperand(v: unknown): string {
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { ref?: unknown }).ref === 'string')
    return (v as { ref: string }).ref;
  if (Array.isArray(v)) return `[${v.map(showOperand).join(', ')}]`;
  return showValue(v);
}

function renderLeaf(leaf: ConditionLeaf): string {
  const s = subjectName(leaf);
  const op = leaf.operation ?? 'is_not_empty';
  const v = leaf.value;
  if (OP_SYMBOL[op]) {
    if (op === 'eq' && Array.isArray(v)) return `${s} in ${showOperand(v)}`;
    return `${s} ${OP_SYMBOL[op]} ${showOperand(v)}`;
  }
  if (DAY_OPS[op]) return `days_since(${s}) ${DAY_OPS[op]} ${showOperand(v)}`;
  switch (op) {
    case 'between':
      return Array.isArray(v)
        ? `${s} between ${showOperand(v[0])} and ${showOperand(v[1])}`
        : `${s} between ${showOperand(v)}`;
    case 'contains':
      return `${s} contains ${showOperand(v)}`;
    case 'not_contains':
      return `not (${s} contains ${showOperand(v)})`;
    case 'is_empty':
      return `empty(${s})`;
    case 'is_not_empty':
      return `filled(${s})`;
    case 'about':
      return `${s} about ${showOperand(v)}`;
    case 'any_have_value':
      return `any_filled(${s})`;
    case 'all_have_value':
      return `all_filled(${s})`;
    default:
      return `${s} ${op} ${showOperand(v)}`;
  }
}

/** The condition group as readable text; null → `always`. */
export function renderCondition(c: Condition | null | undefined): string {
  if (c == null) return 'always';
  return render(c, true);
}

/** A group's text, in parentheses unless it is the whole condition. */
function grouped(text: string, top: boolean): string {
  return top ? text : `(${text})`;
}

function render(c: Condition, top: boolean): string {
  if ('all' in c && Array.isArray(c.all))
    return c.all.length === 0
      ? 'always'
      : c.all.length === 1
        ? render(c.all[0], top)
        : grouped(c.all.map((x) => render(x, false)).join(' and '), top);
  if ('any' in c && Array.isArray(c.any))
    return c.any.length === 0
      ? 'never'
      : c.any.length === 1
        ? render(c.any[0], top)
        : grouped(c.any.map((x) => render(x, false)).join(' or '), top);
  if ('not' in c && c.not) return `not ${render(c.not as Condition, false)}`;
  if (isLeaf(c)) return renderLeaf(c);
  return 'always';
}

/** Every parameter code a condition reads, each once, in order. */
export function conditionReads(c: Condition | null | undefined): string[] {
  const out = new Set<string>();
  const visit = (x: Condition | null | undefined): void => {
    if (x == null) return;
    if ('all' in x && Array.isArray(x.all)) x.all.forEach(visit);
    else if ('any' in x && Array.isArray(x.any)) x.any.forEach(visit);
    else if ('not' in x && x.not) visit(x.not as Condition);
    else if (isLeaf(x)) for (const code of leafParams(x).codes) out.add(code);
  };
  visit(c);
  return [...out];
}

/** Whether a condition reads a parameter of a user-profile entity (an authentication check). */
export function readsProfile(c: Condition | null | undefined, compiled: CompiledBundle): boolean {
  if (c == null) return false;
  if ('all' in c && Array.isArray(c.all)) return c.all.some((x) => readsProfile(x, compiled));
  if ('any' in c && Array.isArray(c.any)) return c.any.some((x) => readsProfile(x, compiled));
  if ('not' in c && c.not) return readsProfile(c.not as Condition, compiled);
  if (!isLeaf(c)) return false;
  const { codes, entity } = leafParams(c);
  if (entity && compiled.entities.get(entity)?.type === 'user-profile') return true;
  return [...codes, ...operandRefs(c.value)].some((code) => compiled.profileParams.has(code));
}

/** The parameter codes a leaf's operand names through `{"ref"}` (one, or in a list). */
function operandRefs(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter(isRef).map((v) => v.ref);
}

export function evaluateCondition(c: Condition | null | undefined, ctx: ConditionContext): ConditionResult {
  if (c == null) return { holds: true, known: true, reason: 'always applies', reads: [] };
  return evaluate(c, ctx);
}

function evaluate(c: Condition, ctx: ConditionContext): ConditionResult {
  spend(1);
  if ('all' in c && Array.isArray(c.all)) {
    const parts = c.all.map((x) => evaluate(x, ctx));
    const reads = parts.flatMap((p) => p.reads);
    const failing = parts.filter((p) => !p.holds && !p.error);
    // A part that fails on known values decides, even beside a part that cannot be evaluated.
    const decisive = failing.find((p) => p.known);
    if (decisive) return { holds: false, known: true, reason: decisive.reason, reads };
    const broken = parts.find((p) => p.error);
    if (broken) return { ...broken, holds: false, reads };
    if (failing.length === 0)
      return {
        holds: true,
        known: parts.every((p) => p.known),
        reason: parts.map((p) => p.reason).join('; ') || 'always applies',
        reads,
      };
    return { holds: false, known: false, reason: failing[0]!.reason, reads };
  }
  if ('any' in c && Array.isArray(c.any)) {
    const parts = c.any.map((x) => evaluate(x, ctx));
    const reads = parts.flatMap((p) => p.reads);
    const holding = parts.find((p) => p.holds);
    if (holding) return { holds: true, known: holding.known, reason: holding.reason, reads };
    const broken = parts.find((p) => p.error);
    if (broken) return { ...broken, holds: false, reads };
    return {
      holds: false,
      known: parts.every((p) => p.known),
      reason: parts.map((p) => p.reason).join('; ') || 'no alternative applies',
      reads,
    };
  }
  if ('not' in c && c.not) {
    const inner = evaluate(c.not as Condition, ctx);
    if (inner.error) return { ...inner, holds: false };
    return { holds: !inner.holds, known: inner.known, reason: `not: ${inner.reason}`, reads: inner.reads };
  }
  if (isLeaf(c)) return evaluateLeaf(c, ctx);
  return { holds: true, known: true, reason: 'always applies', reads: [] };
}

function resolveOperand(v: unknown, ctx: ConditionContext): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { ref?: unknown }).ref === 'string')
    return ctx.values[(v as { ref: string }).ref];
  return v;
}

function entityCount(leaf: ConditionLeaf, ctx: ConditionContext): number {
  const { codes, entity } = leafParams(leaf);
  for (const code of codes) {
    const v = ctx.values[code];
    if (Array.isArray(v)) return v.length;
  }
  const members = entity ? (ctx.compiled.entities.get(entity)?.parameters ?? []) : codes;
  for (const code of members) {
    const v = ctx.values[code];
    if (Array.isArray(v)) return v.length;
  }
  return members.some((code) => isFilled(ctx.values[code])) ? 1 : 0;
}

function about(subject: unknown, topic: unknown): boolean {
  const topicStems = contentStems(normText(topic));
  if (topicStems.length === 0) return false;
  const subjectStems = new Set(contentStems(normText(subject)));
  const hits = topicStems.filter((s) => subjectStems.has(s)).length;
  return hits >= Math.max(1, Math.ceil(topicStems.length / 2));
}

function compare(op: string, actual: unknown, expected: unknown, ctx: ConditionContext): boolean {
  switch (op) {
    case 'eq':
      return Array.isArray(expected)
        ? expected.some((e) => looseEquals(actual, e))
        : looseEquals(actual, expected);
    case 'neq':
      return Array.isArray(expected)
        ? !expected.some((e) => looseEquals(actual, e))
        : !looseEquals(actual, expected);
    case 'contains':
    case 'not_contains': {
      const has = Array.isArray(actual)
        ? actual.some((a) => looseEquals(a, expected))
        : normText(actual).includes(normText(expected));
      return op === 'contains' ? has : !has;
    }
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte': {
      const [a, b] = orderable(actual, expected);
      if (a === undefined || b === undefined) return false;
      return op === 'gt' ? a > b : op === 'lt' ? a < b : op === 'gte' ? a >= b : a <= b;
    }
    case 'between': {
      if (!Array.isArray(expected) || expected.length < 2) return false;
      const [a, lo] = orderable(actual, resolveOperand(expected[0], ctx));
      const [, hi] = orderable(actual, resolveOperand(expected[1], ctx));
      return (
        a !== undefined &&
        lo !== undefined &&
        hi !== undefined &&
        a >= Math.min(lo, hi) &&
        a <= Math.max(lo, hi)
      );
    }
    case 'about':
      return about(actual, expected);
    case 'more_than_x_days':
    case 'less_than_x_days':
    case 'exactly_x_days': {
      const days = daysSince(actual, ctx.clock);
      const x = toNumber(expected);
      if (days === undefined || x === undefined) return false;
      return op === 'more_than_x_days' ? days > x : op === 'less_than_x_days' ? days < x : days === x;
    }
    default:
      return false;
  }
}

/** Both sides as numbers: numerically, or as calendar days when either side is a date. */
function orderable(a: unknown, b: unknown): [number | undefined, number | undefined] {
  const na = toNumber(a);
  const nb = toNumber(b);
  if (na !== undefined && nb !== undefined) return [na, nb];
  return [toEpochDay(a) ?? na, toEpochDay(b) ?? nb];
}

const isRef = (v: unknown): v is { ref: string } =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { ref?: unknown }).ref === 'string';

/** How a declared type reads a value for comparison; undefined = the value is not of that type. */
const READERS: Partial<Record<string, (v: unknown) => unknown>> = {
  numeric: toNumber,
  date: toEpochDay,
  boolean: toBoolean,
};

/** Why a value cannot be compared: it is not `what`. */
function bad(value: unknown, what: string): string {
  return `${showValue(value)} is not ${what}`;
}

/**
 * Why `actual op expected` cannot be evaluated, or null when it can: an ordering or a day count
 * over values that are not numbers or dates, or an equality between a typed parameter's value
 * and an operand that is not of its type (a numeric parameter compared with "thirty").
 */
function incompatibility(
  op: string,
  type: string | undefined,
  actual: unknown,
  expected: unknown,
  ctx: ConditionContext,
): string | null {
  const operands = Array.isArray(expected) ? expected.map((e) => resolveOperand(e, ctx)) : [expected];
  switch (op) {
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte':
    case 'between':
      for (const e of operands) {
        const [a, b] = orderable(actual, e);
        if (a === undefined) return bad(actual, 'a number or a date');
        if (b === undefined) return bad(e, 'a number or a date');
        if (type === 'date' && toEpochDay(e) === undefined) return bad(e, 'a date');
        if (type === 'numeric' && toNumber(e) === undefined) return bad(e, 'a number');
      }
      return null;
    case 'more_than_x_days':
    case 'less_than_x_days':
    case 'exactly_x_days':
      if (toEpochDay(actual) === undefined) return bad(actual, 'a date');
      if (toNumber(expected) === undefined) return bad(expected, 'a number of days');
      return null;
    case 'eq':
    case 'neq': {
      const read = type === undefined ? undefined : READERS[type];
      if (!read) return null;
      if (read(actual) === undefined) return bad(actual, `a ${type} value`);
      const off = operands.find((e) => e !== null && e !== undefined && read(e) === undefined);
      return off === undefined ? null : bad(off, `a ${type} value`);
    }
    default:
      return null;
  }
}

/** Why the subject alone cannot be compared by `op` (it is not of the type compared), or null. */
function subjectProblem(op: string, type: string | undefined, actual: unknown): string | null {
  switch (op) {
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte':
    case 'between':
      if (type === 'numeric' && toNumber(actual) === undefined) return bad(actual, 'a number');
      if (type === 'date' && toEpochDay(actual) === undefined) return bad(actual, 'a date');
      return null;
    case 'more_than_x_days':
    case 'less_than_x_days':
    case 'exactly_x_days':
      return toEpochDay(actual) === undefined ? bad(actual, 'a date') : null;
    case 'eq':
    case 'neq': {
      const read = type === undefined ? undefined : READERS[type];
      return read && read(actual) === undefined ? bad(actual, `a ${type} value`) : null;
    }
    default:
      return null;
  }
}

function evaluateLeaf(leaf: ConditionLeaf, ctx: ConditionContext): ConditionResult {
  const text = renderLeaf(leaf);
  const { codes } = leafParams(leaf);
  const op = leaf.operation ?? 'is_not_empty';
  const source = leaf.method === 'param_extracted_current' ? ctx.current : ctx.values;
  const reads = [...codes];
  const failedRead = [...codes, ...operandRefs(leaf.value)].find((code) => ctx.failed?.[code] !== undefined);
  if (failedRead !== undefined) {
    const error = `${failedRead} could not be computed (${ctx.failed![failedRead]}), so ${text} cannot be evaluated`;
    return { holds: false, known: true, reason: error, reads, error };
  }

  if (op === 'any_have_value' || op === 'all_have_value') {
    const filled = codes.filter((code) => isFilled(source[code]));
    const holds =
      op === 'any_have_value' ? filled.length > 0 : codes.length > 0 && filled.length === codes.length;
    const reason = `${text} ${holds ? 'holds' : 'does not hold'}: ${filled.length ? `filled ${filled.join(', ')}` : 'none filled'}`;
    return { holds, known: true, reason, reads };
  }

  let actual: unknown;
  let label: string;
  if (leaf.method === 'number_of_entities') {
    actual = entityCount(leaf, ctx);
    label = subjectName(leaf);
  } else if (leaf.reads_message === true) {
    actual = ctx.message;
    label = 'the message';
  } else {
    const code = codes[0];
    actual = code === undefined ? undefined : source[code];
    label = subjectName(leaf);
  }

  if (op === 'is_empty' || op === 'is_not_empty') {
    const empty = codes.length > 1 ? codes.every((c) => !isFilled(source[c])) : !isFilled(actual);
    const holds = op === 'is_empty' ? empty : !empty;
    return {
      holds,
      known: true,
      reason: empty ? `${label} is empty` : `${label} is ${showValue(actual)}`,
      reads,
    };
  }

  // A referenced value that is present but not of the compared type is an error even while the
  // subject is unknown: the rule could never be evaluated as written.
  const subjectType = ctx.compiled.params.get(codes[0] ?? '')?.type;
  for (const ref of operandRefs(leaf.value)) {
    const v = ctx.values[ref];
    const problem = isFilled(v) ? subjectProblem(op, subjectType, v) : null;
    if (problem !== null) {
      const error = `${ref} is ${showValue(v)}; ${problem}, so ${text} cannot be evaluated`;
      return { holds: false, known: true, reason: error, reads, error };
    }
  }
  if (!isFilled(actual) && leaf.method !== 'number_of_entities') {
    return { holds: false, known: false, reason: `${label} is not known yet`, reads };
  }
  const type =
    leaf.method === 'number_of_entities'
      ? 'numeric'
      : leaf.reads_message === true
        ? 'string'
        : ctx.compiled.params.get(codes[0] ?? '')?.type;
  // A subject that is present but not of its type is an error even while the operand is unknown.
  const badSubject = subjectProblem(op, type, actual);
  if (badSubject !== null) {
    const error = `${label} is ${showValue(actual)}; ${badSubject}, so ${text} cannot be evaluated`;
    return { holds: false, known: true, reason: error, reads, error };
  }
  const unknownRef = [leaf.value, ...(Array.isArray(leaf.value) ? leaf.value : [])].find(
    (v) => isRef(v) && !isFilled(ctx.values[v.ref]),
  ) as { ref: string } | undefined;
  if (unknownRef) return { holds: false, known: false, reason: `${unknownRef.ref} is not known yet`, reads };
  const expected = resolveOperand(leaf.value, ctx);
  const problem = incompatibility(op, type, actual, expected, ctx);
  if (problem !== null) {
    const error = `${label} is ${showValue(actual)}; ${problem}, so ${text} cannot be evaluated`;
    return { holds: false, known: true, reason: error, reads, error };
  }
  const holds = compare(op, actual, expected, ctx);
  const refsShown = operandRefs(leaf.value).map((ref) => `, ${ref} is ${showValue(ctx.values[ref])}`);
  const shown =
    (DAY_OPS[op]
      ? `days_since(${label}) is ${showValue(daysSince(actual, ctx.clock))} (${label} = ${showValue(actual)})`
      : `${label} is ${showValue(actual)}`) + [...new Set(refsShown)].join('');
  return { holds, known: true, reason: `${shown}, so ${text} ${holds ? 'holds' : 'does not hold'}`, reads };
}
