import { describe, expect, it } from 'vitest';
import { displayValue, formatMs, formatRelative, plural, titleFrom, toPrettyJson } from './format';

describe('format helpers', () => {
  it('formats round trips', () => {
    expect(formatMs(12.4)).toBe('12 ms');
    expect(formatMs(1534)).toBe('1.53 s');
    expect(formatMs(undefined)).toBe('');
  });
  it('formats relative times', () => {
    const now = Date.parse('2025-01-01T12:00:00Z');
    expect(formatRelative('2025-01-01T11:59:50Z', now)).toBe('just now');
    expect(formatRelative('2025-01-01T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2025-01-01T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelative('nonsense', now)).toBe('');
  });
  it('makes titles from messages', () => {
    expect(titleFrom('  hello   world ')).toBe('hello world');
    expect(titleFrom('I want to dispute a charge of $120 at Coffee Corner from 10 days ago', 30)).toBe(
      'I want to dispute a charge of…',
    );
  });
  it('counts in words, singular for exactly one', () => {
    expect(plural(1, 'turn')).toBe('1 turn');
    expect(plural(0, 'turn')).toBe('0 turns');
    expect(plural(2, 'branch', 'branches')).toBe('2 branches');
    expect(plural(1204, 'rule')).toBe('1,204 rules');
  });
  it('shows any value', () => {
    expect(displayValue({ a: 1 })).toBe('{"a":1}');
    expect(displayValue(null)).toBe('null');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toPrettyJson(cyclic)).toBe('[object Object]');
  });
});
