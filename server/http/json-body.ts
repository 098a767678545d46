/**
 * Parses JSON request bodies before the route validators run, so every failure has a readable
 * 4xx: over the limit → 413, not JSON → 415, malformed or nested deeper than MAX_JSON_DEPTH →
 * 422 (deeper documents would overflow the stack of the recursive code that reads bundles), text
 * no store can hold as written (`storable-text.ts`) → 422 at its place. The
 * parsed value is handed to Hono's body cache and its `c.req.json()`, where the zod validators
 * read it (the body is parsed once).
 */
import type { MiddlewareHandler } from 'hono';
import { malformedJson, unprocessable, unsupportedMediaType } from './errors';
import { readBodyWithLimit } from './read-body';
import { findUnstorable, refusal } from './storable-text';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const MAX_JSON_DEPTH = 100;

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings skipped), without recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, (depth += 1));
    else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return max;
}

function isJsonContentType(contentType: string | undefined): boolean {
  return Boolean(contentType && JSON_MEDIA_TYPE.test(contentType.split(';')[0]!.trim()));
}

export function jsonBody(limit: number): MiddlewareHandler {
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method)) return next();
    const contentType = c.req.header('content-type');
    const bytes = await readBodyWithLimit(c.req.raw, limit);
    // The raw stream is consumed now: later readers get these bytes from Hono's cache (which
    // holds promises at run time, whatever its declared type says).
    const cache = c.req.bodyCache as Record<string, Promise<unknown>>;
    cache.arrayBuffer = Promise.resolve(bytes.buffer);
    // No body and no type: let the validators report the missing fields.
    if (bytes.byteLength === 0 && !contentType) return next();
    if (!isJsonContentType(contentType)) throw unsupportedMediaType(contentType);
    let parsed: unknown;
    let depth: number;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      if (!text.trim()) throw new Error('the body is empty');
      depth = jsonDepth(text);
      if (depth <= MAX_JSON_DEPTH) parsed = JSON.parse(text);
    } catch (error) {
      throw malformedJson(error instanceof Error ? error.message : String(error));
    }
    if (depth > MAX_JSON_DEPTH) {
      const message = `Request body is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`;
      throw unprocessable(message, [{ loc: ['body'], msg: message, type: 'json_too_deep' }]);
    }
    const unstorableText = findUnstorable(parsed);
    if (unstorableText) {
      const { loc, why } = unstorableText;
      throw refusal(loc.length ? `text at ${loc.join('.')}` : 'body', ['body', ...loc], why);
    }
    const json = Promise.resolve(parsed);
    cache.text = Promise.resolve(text);
    cache.json = json;
    // Hono's `c.req.json()` (what its validator reads) would parse the text again, after copying
    // it through a web `Response`: it answers the value parsed here instead.
    c.req.json = (() => json) as typeof c.req.json;
    return next();
  };
}
