/** One rule for clocks everywhere: a task, an impact case and a test case refuse the same clocks. */
import { describe, expect, it } from 'vitest';
import { TestCase } from '../lib/test-cases/format';
import { CreateTaskRequest } from './api';
import { ImpactCase } from './impact';

const OUT_OF_RANGE = ['9999-12-31T23:59:59-23:59', '0000-01-01T00:00:00+23:59'];
const IN_RANGE = ['2025-03-15T12:00:00Z', '9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z'];

const impactCase = (clock: string) => ImpactCase.safeParse({ id: 'c', clock, messages: ['hi'] }).success;
const task = (clock: string) =>
  CreateTaskRequest.safeParse({ agent_id: 'a', user_id: 'u', reference_clock: clock }).success;
const testCase = (clock: string) =>
  TestCase.safeParse({
    format: 'threadline-test-case',
    format_version: 1,
    name: 'n',
    agent_id: 'a',
    clock,
    turns: [{ say: 'hi', expect: { decision: 'proceed' } }],
  }).success;

describe('clocks', () => {
  it.each(OUT_OF_RANGE)('refuses %s as a task, an impact case and a test case do', (clock) => {
    expect([task(clock), impactCase(clock), testCase(clock)]).toEqual([false, false, false]);
  });
  it.each(IN_RANGE)('takes %s everywhere', (clock) => {
    expect([task(clock), impactCase(clock), testCase(clock)]).toEqual([true, true, true]);
  });
});
