/**
 * Parses JSON request bodies before the route validators run, so every failure has a readable
 * 4xx: over the limit → 413, not JSON → 415, malformed → 422. The parsed value is handed to
 * Hono's body cache, where the zod validators read it.
 */
import type { MiddlewareHandler } from 'hono';
import { malformedJson, unsupportedMediaType } from './errors';
import { readBodyWithLimit } from './read-body';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function isJsonContentType(contentType: string | undefined): boolean {
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
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      if (!text.trim()) throw new Error('the body is empty');
      parsed = JSON.parse(text);
    } catch (error) {
      throw malformedJson(error instanceof Error ? error.message : String(error));
    }
    cache.json = Promise.resolve(parsed);
    return next();
  };
}
