/**
 * Ids shaped like a parameter's examples. "TX-1042" → letters{2} "-" digits{4}; "ABC123" →
 * letters{3} digits{3}; "DE89 3704 0044" (every group holding a digit, as IBANs are written) →
 * letters{2} digits{2}, optional space, digits{4}, ... Examples without digits (plain words such
 * as merchant names) are matched literally instead.
 */
import type { Found } from './quoted';

export interface IdMatcher {
  /** Matches values shaped like the examples (case-insensitive), or null when none are id-like. */
  shape: RegExp | null;
  /** Word examples matched as they are. */
  literals: string[];
  /** Whether every example is upper-case (then matches are upper-cased). */
  upper: boolean;
  /** Whether the shapes are digits only (ambiguous with amounts: only used when asked for). */
  digitsOnly: boolean;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function shapeOf(example: string): string {
  let out = '';
  for (const m of example.matchAll(/[A-Za-z]+|\d+|./g)) {
    const run = m[0];
    if (/^[A-Za-z]+$/.test(run)) out += `[A-Za-z]{${run.length}}`;
    else if (/^\d+$/.test(run)) out += `\\d{${run.length}}`;
    else if (/\s/.test(run)) out += '\\s?';
    else out += escape(run);
  }
  return out;
}

/**
 * The examples worth reading: the first 32, each at most 64 characters. Enough to learn a
 * parameter's shapes; few and short enough that matching them (and the email and phone tests)
 * costs a bounded amount whatever the bundle holds.
 */
export function usableExamples(examples: unknown[] | undefined): string[] {
  return (Array.isArray(examples) ? examples.slice(0, 32) : [])
    .map((e) => String(e).trim())
    .filter((e) => e.length > 0 && e.length <= 64);
}

export function idMatcher(strings: string[]): IdMatcher | null {
  if (strings.length === 0) return null;
  const idLike = strings.filter((e) => e.split(/\s+/).every((group) => /\d/.test(group)));
  const literals = strings.filter((e) => !/\d/.test(e));
  const shapes = [...new Set(idLike.map(shapeOf))];
  const shape = shapes.length
    ? new RegExp(`(?<![A-Za-z0-9])(?:${shapes.join('|')})(?![A-Za-z0-9])`, 'gi')
    : null;
  return {
    shape,
    literals,
    upper: idLike.length > 0 && idLike.every((e) => e === e.toUpperCase()),
    digitsOnly: idLike.length > 0 && idLike.every((e) => /^\d+$/.test(e)),
  };
}

export function findIds(text: string, m: IdMatcher): Found<string>[] {
  const out: Found<string>[] = [];
  if (m.shape) {
    for (const hit of text.matchAll(m.shape)) {
      const v = hit[0];
      if (!/\d/.test(v)) continue;
      out.push({ start: hit.index, end: hit.index + v.length, value: m.upper ? v.toUpperCase() : v });
    }
  }
  const lower = text.toLowerCase();
  for (const lit of m.literals) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${escape(lit.toLowerCase())}(?![\\p{L}\\p{N}])`, 'gu');
    for (const hit of lower.matchAll(re))
      out.push({ start: hit.index, end: hit.index + lit.length, value: lit });
  }
  return out.sort((a, b) => a.start - b.start);
}
