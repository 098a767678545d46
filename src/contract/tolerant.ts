/**
 * Field-by-field reading of a server's answer. Each field degrades on its own: a missing or
 * `null` value is absent; a value of another type is kept as its text (numbers, booleans) or left
 * out (objects, arrays) and, either way, recorded with its raw value in the `_unread` list, so
 * the UI can say what arrived instead of throwing the whole answer away or guessing.
 *
 * Pure and linear in the size of the input; objects are read in place, never copied deeply.
 */

/** One field that arrived in an unexpected shape: where (a dotted path) and exactly what. */
export interface UnreadField {
  path: string;
  raw: unknown;
}

/** The key under which a parsed answer lists its unread fields (never a wire field name). */
export const UNREAD_KEY = '_unread';

export type Bag = Record<string, unknown>;

export function isRecord(v: unknown): v is Bag {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `o` without `keys` (a shallow copy): the fields read on their own replace or leave these. */
export function without(o: Bag, keys: readonly string[]): Bag {
  const out: Bag = { ...o };
  for (const k of keys) delete out[k];
  return out;
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** Collects the unread fields of one answer. */
export class FieldReader {
  readonly unread: UnreadField[] = [];

  mark(path: string, raw: unknown): void {
    this.unread.push({ path, raw });
  }

  /** A string; a number or boolean as its text (marked); null/missing absent; anything else absent (marked). */
  text(v: unknown, path: string): string | undefined {
    if (typeof v === 'string') return v;
    if (v === null || v === undefined) return undefined;
    this.mark(path, v);
    return typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  }

  number(v: unknown, path: string): number | undefined {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (v !== null && v !== undefined) this.mark(path, v);
    return undefined;
  }

  /** An object; anything else absent (marked unless null/missing). Read in place, not copied. */
  record(v: unknown, path: string): Bag | undefined {
    if (isRecord(v)) return v;
    if (v !== null && v !== undefined) this.mark(path, v);
    return undefined;
  }

  /** An array, each item read on its own; a dropped item (`undefined`) is marked by `item`. */
  list<T>(v: unknown, path: string, item: (x: unknown, path: string) => T | undefined): T[] {
    if (v === null || v === undefined) return [];
    if (!Array.isArray(v)) {
      this.mark(path, v);
      return [];
    }
    const out: T[] = [];
    for (let i = 0; i < v.length; i += 1) {
      const read = item(v[i], join(path, i));
      if (read !== undefined) out.push(read);
    }
    return out;
  }

  /** A list of strings: other scalars as their text, objects as JSON (all marked), nulls dropped (marked). */
  textList(v: unknown, path: string): string[] {
    return this.list(v, path, (x, p) => {
      if (typeof x === 'string') return x;
      this.mark(p, x);
      if (x === null || x === undefined) return undefined;
      return typeof x === 'object' ? JSON.stringify(x) : String(x);
    });
  }

  /** Suggestions: plain strings, or objects with a `text` (some services), else marked. */
  suggestions(v: unknown, path: string): string[] {
    return this.list(v, path, (x, p) => {
      if (typeof x === 'string') return x;
      if (isRecord(x) && typeof x.text === 'string') return x.text;
      this.mark(p, x);
      if (x === null || x === undefined) return undefined;
      return typeof x === 'object' ? JSON.stringify(x) : String(x);
    });
  }

  /** The unread list of a value that was already read once (a re-imported export keeps its marks). */
  carry(v: unknown): void {
    if (!Array.isArray(v)) return;
    for (const u of v) if (isRecord(u) && typeof u.path === 'string') this.mark(u.path, u.raw);
  }

  /** `{ _unread }` when something was unread, else nothing (so clean answers stay clean). */
  result(): { _unread?: UnreadField[] } {
    return this.unread.length ? { [UNREAD_KEY]: this.unread } : {};
  }
}

/** A short, single-line rendering of a raw value for a mark ("null", "42", `{"a":1}`), capped. */
export function rawPreview(raw: unknown, max = 120): string {
  let s: string;
  if (raw === undefined) s = 'missing';
  else {
    try {
      s = JSON.stringify(raw) ?? String(raw);
    } catch {
      s = String(raw);
    }
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
