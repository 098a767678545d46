import { describe, expect, it } from 'vitest';
import { CONDITION_OPERATIONS, PARAMETER_TYPES } from '../../contract/bundle';
import {
  OPERATION_NEEDS,
  OPERATION_PARAMETER_TYPES,
  isConditionOperation,
  operationFits,
  operationsFor,
} from './operation-types';

describe('operation / parameter type table', () => {
  it('covers every operation, each fitting at least one type', () => {
    expect(Object.keys(OPERATION_PARAMETER_TYPES).sort()).toEqual([...CONDITION_OPERATIONS].sort());
    for (const op of CONDITION_OPERATIONS) expect(OPERATION_PARAMETER_TYPES[op].length).toBeGreaterThan(0);
  });

  it('explains in words every operation that does not fit all types', () => {
    for (const op of CONDITION_OPERATIONS) {
      if (OPERATION_PARAMETER_TYPES[op].length < PARAMETER_TYPES.length)
        expect(OPERATION_NEEDS[op]).toBeTruthy();
    }
  });

  it('refuses ordering on enums and day counts on anything but dates', () => {
    expect(operationFits('gt', 'enum')).toBe(false);
    expect(operationFits('gt', 'numeric')).toBe(true);
    expect(operationFits('between', 'date')).toBe(true);
    expect(operationFits('more_than_x_days', 'string')).toBe(false);
    expect(operationFits('more_than_x_days', 'date')).toBe(true);
    expect(operationFits('eq', 'boolean')).toBe(true);
  });

  it('lists the operations that fit a type, for completions', () => {
    expect(operationsFor('boolean')).toEqual([
      'eq',
      'neq',
      'is_empty',
      'is_not_empty',
      'any_have_value',
      'all_have_value',
    ]);
    expect(operationsFor('date')).toContain('exactly_x_days');
  });

  it('recognises operation names', () => {
    expect(isConditionOperation('between')).toBe(true);
    expect(isConditionOperation('toString')).toBe(false);
  });
});
