/** Reading and comparing parameter values of any type. */
import type { Values } from './types';

/**
 * A new value map (parameter code → value), optionally copying `from`'s own entries. It has no
 * prototype, so every parameter code is an ordinary key: `__proto__`, `toString` or
 * `constructor` are read, written and deleted like any other name, and a code never reads an
 * inherited member.
 */
export function newValues(from?: Record<string, unknown>): Values {
  const out = Object.create(null) as Values;
  if (from) for (const key of Object.keys(from)) out[key] = from[key];
  return out;
}

export function isFilled(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'number') return Number.isFinite(v);
  return true;
}

export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') {
    const cleaned = v.replace(/[$€£,\s]/g, '');
    if (cleaned === '' || !/^[-+]?\d*\.?\d+(e[-+]?\d+)?$/i.test(cleaned)) return undefined;
    const n = Number(cleaned);
    return Number.isFinite(n) ? n : undefined;
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

export function toBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', 'yes', 'y', '1', 'verified'].includes(s)) return true;
    if (['false', 'no', 'n', '0'].includes(s)) return false;
  }
  return undefined;
}

export function normText(v: unknown): string {
  if (typeof v === 'string') return v.trim().toLowerCase();
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v).toLowerCase();
  return String(v).toLowerCase();
}

/** Loose equality: numbers by value, booleans by truth, everything else case-insensitively. */
export function looseEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    const x = toBoolean(a);
    const y = toBoolean(b);
    return x !== undefined && x === y;
  }
  if (typeof a === 'number' || typeof b === 'number') {
    const x = toNumber(a);
    const y = toNumber(b);
    if (x !== undefined && y !== undefined) return x === y;
  }
  return normText(a) === normText(b);
}

/** A short, readable rendering of a value for predicates, reasons and replies. */
export function showValue(v: unknown): string {
  if (v === undefined || v === null) return 'unknown';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return String(v);
  const json = JSON.stringify(v);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return String(Math.round(n * 100) / 100);
}
