/**
 * Which condition operations fit which parameter types, as data. The validator reports an
 * operation used on a parameter whose type is not listed (`gt` on an enum, `more_than_x_days` on
 * a string); the bundle editor can use the same table to offer only fitting operations.
 */
import { CONDITION_OPERATIONS, PARAMETER_TYPES } from '../../contract/bundle';

export type ParameterType = (typeof PARAMETER_TYPES)[number];
export type ConditionOperation = (typeof CONDITION_OPERATIONS)[number];

const ALL_TYPES: readonly ParameterType[] = PARAMETER_TYPES;
const ORDERED: readonly ParameterType[] = ['numeric', 'date'];
const TEXTUAL: readonly ParameterType[] = ['string', 'enum'];
const COLLECTIONS: readonly ParameterType[] = ['array', 'list_of_objects', 'object'];

export const OPERATION_PARAMETER_TYPES: Record<ConditionOperation, readonly ParameterType[]> = {
  eq: ALL_TYPES,
  neq: ALL_TYPES,
  contains: [...TEXTUAL, ...COLLECTIONS],
  not_contains: [...TEXTUAL, ...COLLECTIONS],
  gt: ORDERED,
  lt: ORDERED,
  gte: ORDERED,
  lte: ORDERED,
  between: ORDERED,
  is_empty: ALL_TYPES,
  is_not_empty: ALL_TYPES,
  about: TEXTUAL,
  more_than_x_days: ['date'],
  less_than_x_days: ['date'],
  exactly_x_days: ['date'],
  any_have_value: ALL_TYPES,
  all_have_value: ALL_TYPES,
};

/** In words, for messages: what an operation compares. */
export const OPERATION_NEEDS: Partial<Record<ConditionOperation, string>> = {
  contains: 'text or a list',
  not_contains: 'text or a list',
  gt: 'numbers or dates',
  lt: 'numbers or dates',
  gte: 'numbers or dates',
  lte: 'numbers or dates',
  between: 'numbers or dates',
  about: 'text',
  more_than_x_days: 'dates',
  less_than_x_days: 'dates',
  exactly_x_days: 'dates',
};

export function isConditionOperation(op: string): op is ConditionOperation {
  return Object.prototype.hasOwnProperty.call(OPERATION_PARAMETER_TYPES, op);
}

export function operationFits(op: ConditionOperation, type: ParameterType): boolean {
  return OPERATION_PARAMETER_TYPES[op].includes(type);
}

/** The operations that fit a parameter type (for the editor's completions). */
export function operationsFor(type: ParameterType): ConditionOperation[] {
  return CONDITION_OPERATIONS.filter((op) => operationFits(op, type));
}
