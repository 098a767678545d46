/**
 * Checks of one condition group (rule `when`, tool trigger): methods and operations exist, the
 * parameters and entities they read are defined, the operation fits the parameter's type,
 * `between` has two values, `{"ref"}` names a parameter, enum comparisons can match.
 */
import { CONDITION_METHODS, CONDITION_OPERATIONS } from '../../contract/bundle';
import { plural } from '../format';
import type { Loc } from './issue-codes';
import { LEGACY_METHODS } from './normalize';
import {
  OPERATION_NEEDS,
  isConditionOperation,
  operationFits,
  operationsFor,
  type ConditionOperation,
  type ParameterType,
} from './operation-types';
import { closestMatch, suggestion } from './suggest';
import { entityMembers } from './entity-members';
import {
  asArray,
  asObject,
  asString,
  refEntity,
  refParameter,
  report,
  type Json,
  type ValidationContext,
} from './validation-context';

export interface ConditionSite {
  /** The subject of messages, e.g. "The condition of rule 'late-dispute'". */
  label: string;
  /** Summary rules may also use number_of_entities and entity_param_value. */
  summary: boolean;
}

const SUMMARY_ONLY_METHODS = new Set(['number_of_entities', 'entity_param_value']);
const ENTITY_METHODS = new Set(['entity_param', 'entity_param_referenced', 'entity_param_value']);
const ALL_METHODS = [...CONDITION_METHODS, ...Object.keys(LEGACY_METHODS)];

export function checkCondition(
  ctx: ValidationContext,
  condition: unknown,
  loc: Loc,
  site: ConditionSite,
): void {
  const c = asObject(condition);
  if (!c) return;
  const all = asArray(c.all);
  const any = asArray(c.any);
  if (all) all.forEach((x, i) => checkCondition(ctx, x, [...loc, 'all', i], site));
  else if (any) any.forEach((x, i) => checkCondition(ctx, x, [...loc, 'any', i], site));
  else if ('not' in c) checkCondition(ctx, c.not, [...loc, 'not'], site);
  else if (typeof c.method === 'string') checkLeaf(ctx, c, loc, site);
}

/** A parameter the leaf reads, with where its name sits. */
interface Read {
  type: ParameterType | undefined;
  code: string;
}

function checkLeaf(ctx: ValidationContext, leaf: Json, loc: Loc, site: ConditionSite): void {
  const method = leaf.method as string;
  const legacy = LEGACY_METHODS[method];
  const known = legacy !== undefined || (CONDITION_METHODS as readonly string[]).includes(method);
  if (!known) {
    const close = closestMatch(method, ALL_METHODS);
    report(
      ctx,
      'unknown_method',
      `${site.label} uses method '${method}', which does not exist.${close ? ` Did you mean '${close}'?` : ` Methods: ${CONDITION_METHODS.join(', ')}.`}`,
      [...loc, 'method'],
    );
  }
  const effective = legacy?.method ?? method;
  if (SUMMARY_ONLY_METHODS.has(effective) && !site.summary) {
    report(
      ctx,
      'method_outside_summary',
      `${site.label} uses method '${method}', which only summary rules (summary.success, summary.fail, summary.missing_info) may use.`,
      [...loc, 'method'],
    );
  }

  const written = asString(leaf.operation);
  let op: ConditionOperation | undefined;
  if (written !== undefined) {
    if (isConditionOperation(written)) op = written;
    else {
      report(
        ctx,
        'unknown_operation',
        `${site.label} uses operation '${written}', which does not exist.${suggestion(written, CONDITION_OPERATIONS, 'operations')}`,
        [...loc, 'operation'],
      );
    }
  } else if (legacy?.operation && isConditionOperation(legacy.operation)) {
    op = legacy.operation;
  }

  const reads = known ? readsOf(ctx, leaf, loc, site, effective, legacy?.message === true) : [];
  if (op)
    checkOperationFits(
      ctx,
      op,
      reads,
      written !== undefined ? [...loc, 'operation'] : [...loc, 'method'],
      site,
    );
  if (op === 'between') checkBetween(ctx, leaf, loc, site);
  if (op && NEEDS_OPERAND.has(op) && leaf.value === undefined && legacy?.message !== true)
    report(
      ctx,
      'missing_operand',
      `${site.label} uses '${op}' without a value to compare with. Add "value": ${OPERAND_EXAMPLE[op] ?? 'the value to compare with'}.`,
      [...loc, 'value'],
    );
  checkValueRef(ctx, leaf, loc, site);
  const subject = reads[0];
  if (op && subject?.type !== undefined && operationFits(op, subject.type))
    checkOperands(ctx, leaf, loc, site, op, subject);
  if (op === 'eq' || op === 'neq') checkEnumValues(ctx, leaf, loc, site, reads);
}

function readsOf(
  ctx: ValidationContext,
  leaf: Json,
  loc: Loc,
  site: ConditionSite,
  method: string,
  readsMessage: boolean,
): Read[] {
  if (readsMessage) return [{ code: "the user's message", type: 'string' }];
  const paramsLoc = [...loc, 'params'];
  const reads: Read[] = [];
  const readParam = (code: string, at: Loc) => {
    if (refParameter(ctx, code, `${site.label} reads parameter '${code}'`, at)) {
      reads.push({ code, type: ctx.parameters.get(code)!.type });
    }
  };

  if (method === 'number_of_entities') {
    const record = asObject(leaf.params);
    const name = asString(leaf.params) ?? asString(record?.entity);
    if (name !== undefined) {
      refEntity(
        ctx,
        name,
        `${site.label} counts entity '${name}'`,
        record ? [...paramsLoc, 'entity'] : paramsLoc,
      );
    }
    return [{ code: 'the number of entities', type: 'numeric' }];
  }

  const record = asObject(leaf.params);
  if (record) {
    const entity = asString(record.entity);
    const known =
      entity !== undefined &&
      refEntity(ctx, entity, `${site.label} reads entity '${entity}'`, [...paramsLoc, 'entity']);
    for (const key of ['param', 'parameter'] as const) {
      const code = asString(record[key]);
      if (code === undefined) continue;
      readParam(code, [...paramsLoc, key]);
      if (known && ENTITY_METHODS.has(method)) checkMember(ctx, entity, code, [...paramsLoc, key], site);
    }
    return reads;
  }

  const codes = asString(leaf.params) !== undefined ? [leaf.params as string] : asArray(leaf.params);
  codes?.forEach((code, i) => {
    if (typeof code !== 'string') return;
    const at = typeof leaf.params === 'string' ? paramsLoc : [...paramsLoc, i];
    // entity methods may also name a parameter as entity.param
    const dot = code.indexOf('.');
    if (
      ENTITY_METHODS.has(method) &&
      !ctx.parameters.has(code) &&
      dot > 0 &&
      ctx.entities.has(code.slice(0, dot))
    ) {
      readParam(code.slice(dot + 1), at);
      checkMember(ctx, code.slice(0, dot), code.slice(dot + 1), at, site);
      return;
    }
    readParam(code, at);
  });
  return reads;
}

/** An entity condition reads a parameter its entity (or an entity nested in it) holds. */
function checkMember(
  ctx: ValidationContext,
  entity: string,
  code: string,
  at: Loc,
  site: ConditionSite,
): void {
  if (!ctx.parameters.has(code)) return;
  const members = entityMembers(ctx, entity);
  // An entity listing an undefined parameter is reported there; its list is not trusted here.
  if (members.has(code) || [...members].some((m) => !ctx.parameters.has(m))) return;
  report(
    ctx,
    'unknown_entity_parameter',
    `${site.label} reads parameter '${code}' of entity '${entity}', which does not hold it (it holds ${members.size ? [...members].map((m) => `'${m}'`).join(', ') : 'no parameter'}). Add '${code}' to the entity's parameters, or read it with param_value.`,
    at,
  );
}

function checkOperationFits(
  ctx: ValidationContext,
  op: ConditionOperation,
  reads: Read[],
  at: Loc,
  site: ConditionSite,
): void {
  const misfit = reads.find((r) => r.type !== undefined && !operationFits(op, r.type));
  if (!misfit || misfit.type === undefined) return;
  const subject = misfit.code.startsWith('the ') ? misfit.code : `parameter '${misfit.code}'`;
  report(
    ctx,
    'operation_type_mismatch',
    `${site.label} applies '${op}' to ${subject}, which is ${article(misfit.type)} ${misfit.type}; '${op}' compares ${OPERATION_NEEDS[op] ?? 'other types'}. Operations that fit ${article(misfit.type)} ${misfit.type}: ${operationsFor(misfit.type).join(', ')}.`,
    at,
  );
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** Operations that compare the subject with `value`: without it they could never be evaluated. */
const NEEDS_OPERAND = new Set<ConditionOperation>([
  'eq',
  'neq',
  'gt',
  'lt',
  'gte',
  'lte',
  'contains',
  'not_contains',
  'about',
  'more_than_x_days',
  'less_than_x_days',
  'exactly_x_days',
]);
const OPERAND_EXAMPLE: Partial<Record<ConditionOperation, string>> = {
  gt: 'a number or a date, or {"ref": "param-code"}',
  lt: 'a number or a date, or {"ref": "param-code"}',
  gte: 'a number or a date, or {"ref": "param-code"}',
  lte: 'a number or a date, or {"ref": "param-code"}',
  more_than_x_days: 'a number of days',
  less_than_x_days: 'a number of days',
  exactly_x_days: 'a number of days',
};

/** A literal bound as a number to order by: a number, or a date as its day. */
function boundOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  if (isNumberLike(v)) return Number(v.replace(/[$€£,\s]/g, ''));
  const t = ISO_DATE.test(v.trim()) ? Date.parse(v.trim().slice(0, 10)) : NaN;
  return Number.isFinite(t) ? t / 86_400_000 : undefined;
}

function checkBetween(ctx: ValidationContext, leaf: Json, loc: Loc, site: ConditionSite): void {
  const value = leaf.value;
  if (Array.isArray(value) && value.length === 2) {
    const [lo, hi] = [boundOf(value[0]), boundOf(value[1])];
    const bothDates = typeof value[0] === 'string' && typeof value[1] === 'string' && !isNumberLike(value[0]);
    if (
      lo !== undefined &&
      hi !== undefined &&
      lo > hi &&
      (bothDates || isNumberLike(value[0]) === isNumberLike(value[1]))
    )
      report(
        ctx,
        'between_order',
        `${site.label} uses 'between' with ${JSON.stringify(value[0])} above ${JSON.stringify(value[1])}; write the low bound first: [${JSON.stringify(value[1])}, ${JSON.stringify(value[0])}].`,
        [...loc, 'value'],
      );
    return;
  }
  const got = Array.isArray(value)
    ? plural(value.length, 'value')
    : value === undefined
      ? 'no value'
      : 'a single value';
  report(
    ctx,
    'between_arity',
    `${site.label} uses 'between' with ${got}; it needs exactly two: [low, high].`,
    [...loc, 'value'],
  );
}

function checkValueRef(ctx: ValidationContext, leaf: Json, loc: Loc, site: ConditionSite): void {
  const ref = asString(asObject(leaf.value)?.ref);
  if (ref !== undefined)
    refParameter(ctx, ref, `${site.label} compares with parameter '${ref}'`, [...loc, 'value', 'ref']);
}

function checkEnumValues(
  ctx: ValidationContext,
  leaf: Json,
  loc: Loc,
  site: ConditionSite,
  reads: Read[],
): void {
  const enumRead = reads.find((r) => r.type === 'enum');
  const allowed = enumRead ? ctx.parameters.get(enumRead.code)?.values : undefined;
  if (!enumRead || !allowed || allowed.length === 0) return;
  const lower = new Set(allowed.map((v) => v.toLowerCase()));
  const values = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
  values.forEach((v, i) => {
    if (typeof v !== 'string' && typeof v !== 'number') return;
    if (lower.has(String(v).toLowerCase())) return;
    const at = Array.isArray(leaf.value) ? [...loc, 'value', i] : [...loc, 'value'];
    const close = closestMatch(String(v), allowed);
    report(
      ctx,
      'value_not_in_enum',
      `${site.label} compares enum parameter '${enumRead.code}' with ${JSON.stringify(v)}, which is not one of its values (${allowed.join(', ')}), so it can never match.${close ? ` Did you mean "${close}"?` : ''}`,
      at,
    );
  });
}

// ---------------------------------------------------------------- operand types

const NO_OPERAND = new Set<ConditionOperation>([
  'is_empty',
  'is_not_empty',
  'any_have_value',
  'all_have_value',
]);
const FREE_TEXT = new Set<ConditionOperation>(['about', 'contains', 'not_contains']);
const DAY_OPERATIONS = new Set<ConditionOperation>([
  'more_than_x_days',
  'less_than_x_days',
  'exactly_x_days',
]);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const BOOLEAN_WORDS = new Set(['true', 'false', 'yes', 'no']);

/** Whether a literal reads as a number the way the engine reads one ("120", "$1,200.50"). */
function isNumberLike(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'string') return false;
  const cleaned = v.replace(/[$€£,\s]/g, '');
  // Unambiguous alternatives, so the match cannot backtrack on a long literal.
  return /^[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:e[-+]?\d+)?$/i.test(cleaned);
}

/** What kind of value a type compares with, or null when any literal goes. */
const OPERAND_KIND: Record<ParameterType, 'number' | 'date' | 'boolean' | null> = {
  numeric: 'number',
  date: 'date',
  boolean: 'boolean',
  string: null,
  enum: null,
  object: null,
  list_of_objects: null,
  array: null,
};
const operandKind = (type: ParameterType) => OPERAND_KIND[type];

function literalFits(kind: 'number' | 'date' | 'boolean' | 'days', v: unknown): boolean {
  if (v === null) return true;
  switch (kind) {
    case 'number':
    case 'days':
      // A non-finite number is reported once, as `non_finite_number`.
      return typeof v === 'number' || isNumberLike(v);
    case 'date':
      return typeof v === 'string' && ISO_DATE.test(v.trim());
    case 'boolean':
      return (
        typeof v === 'boolean' ||
        v === 0 ||
        v === 1 ||
        (typeof v === 'string' && BOOLEAN_WORDS.has(v.trim().toLowerCase()))
      );
  }
}

const KIND_WORDS = {
  number: 'a number',
  days: 'a number of days',
  date: 'a date (YYYY-MM-DD)',
  boolean: 'true or false',
} as const;

/**
 * Every operand of a comparison must be of the kind the compared parameter holds: a number for a
 * numeric parameter (and for the days of more_than_x_days), a date for a date, true/false for a
 * boolean; a `{"ref"}` must name a parameter of a compatible type. A mismatch is reported at the
 * operand itself: the engine could not evaluate it, so the rule would never run as written.
 */
function checkOperands(
  ctx: ValidationContext,
  leaf: Json,
  loc: Loc,
  site: ConditionSite,
  op: ConditionOperation,
  subject: Read,
): void {
  if (NO_OPERAND.has(op) || FREE_TEXT.has(op) || subject.type === undefined) return;
  const kind = DAY_OPERATIONS.has(op) ? 'days' : operandKind(subject.type);
  if (kind === null) return;
  const value = leaf.value;
  const operands: { v: unknown; at: Loc }[] =
    Array.isArray(value) && (op === 'between' || op === 'eq' || op === 'neq')
      ? value.map((v, i) => ({ v, at: [...loc, 'value', i] }))
      : [{ v: value, at: [...loc, 'value'] }];
  const what =
    kind === 'days'
      ? `the days of '${op}'`
      : `${subject.code.startsWith('the ') ? subject.code : `parameter '${subject.code}'`} (${subject.type})`;
  for (const { v, at } of operands) {
    if (v === undefined) continue;
    const ref = asString(asObject(v)?.ref);
    if (ref !== undefined) {
      const refType = ctx.parameters.get(ref)?.type;
      const refKind = refType === undefined ? undefined : operandKind(refType);
      const wanted = kind === 'days' ? 'number' : kind;
      if (refType !== undefined && refKind !== wanted && !(refKind === null && wanted === null)) {
        report(
          ctx,
          'operand_type_mismatch',
          `${site.label} compares ${what} with parameter '${ref}', which is ${refType === 'enum' ? 'an' : 'a'} ${refType}; it needs ${KIND_WORDS[kind]}.`,
          [...at, 'ref'],
        );
      }
      continue;
    }
    if (literalFits(kind, v)) continue;
    const hint =
      kind === 'date' && isNumberLike(v)
        ? ` To compare by age, use more_than_x_days / less_than_x_days with ${JSON.stringify(v)}.`
        : '';
    report(
      ctx,
      'operand_type_mismatch',
      `${site.label} compares ${what} with ${JSON.stringify(v)}, which is not ${KIND_WORDS[kind]}, so it could never be evaluated.${hint}`,
      at,
    );
  }
}
