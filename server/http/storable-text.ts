/**
 * Text is text on every store: PostgreSQL refuses the NUL character (U+0000) in text, and both
 * stores would silently turn a lone surrogate (an unpaired `\uD800`–`\uDFFF` escape, which is not
 * a character) into U+FFFD. So a request holding either, in any string or key of its JSON body,
 * its path or its query, is refused with a 422 naming the place, whatever the store.
 */
import type { MiddlewareHandler } from 'hono';
import { unprocessable } from './errors';

type Loc = (string | number)[];

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `s` cannot be stored as written, or null. */
function unstorable(s: string): string | null {
  if (s.includes('\u0000')) return 'contains the NUL character (U+0000), which cannot be stored';
  if (LONE_SURROGATE.test(s))
    return 'contains a lone surrogate (an unpaired \\uD800–\\uDFFF escape), which is not a character';
  return null;
}

/** The first string or key of a parsed JSON value that cannot be stored: its place and why. */
export function findUnstorable(value: unknown): { loc: Loc; why: string } | null {
  const stack: { value: unknown; loc: Loc }[] = [{ value, loc: [] }];
  while (stack.length > 0) {
    const { value: v, loc } = stack.pop()!;
    if (typeof v === 'string') {
      const why = unstorable(v);
      if (why) return { loc, why };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], loc: [...loc, i] });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const why = unstorable(key);
        if (why) return { loc: [...loc, key], why: `has a key that ${why}` };
        stack.push({ value: item, loc: [...loc, key] });
      }
    }
  }
  return null;
}

export function refusal(place: string, loc: Loc, why: string) {
  const message = `The ${place} ${why}. Remove it and send again.`;
  return unprocessable(message, [{ loc, msg: message, type: 'unstorable_text' }]);
}

/** Refuses a path or query that, decoded, cannot be stored (before any route reads it). */
export function storableUrl(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    for (const [part, raw] of [
      ['path', url.pathname],
      ['query', url.search],
    ] as const) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
      } catch {
        continue; // malformed escapes are the routes' to refuse
      }
      const why = unstorable(decoded);
      if (why) throw refusal(part, [part], why);
    }
    return next();
  };
}
