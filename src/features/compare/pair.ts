/**
 * The compare pair as it lives in the URL: `compare=<taskA>..<taskB>`. Task ids are opaque, so
 * the separator is the first `..`; a value that does not hold two different ids is no pair.
 */
export interface ComparePair {
  a: string;
  b: string;
}

export function parseComparePair(value: string | null | undefined): ComparePair | null {
  if (!value) return null;
  const at = value.indexOf('..');
  if (at <= 0) return null;
  const a = value.slice(0, at).trim();
  const b = value.slice(at + 2).trim();
  if (!a || !b || a === b) return null;
  return { a, b };
}

export function formatComparePair(a: string, b: string): string {
  return `${a}..${b}`;
}
