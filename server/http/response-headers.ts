/**
 * Headers that every response of a middleware's routes carries. They are set before the handler
 * runs, so Hono builds the response with them. Setting them on the finished response instead
 * makes Hono copy the response once per header and @hono/node-server leave its fast path (the
 * body becomes a stream), which cost more than the handler of a trace GET. A response built
 * outside the context (the upstream proxy, the CORS preflight) is checked afterwards and given
 * any header it lacks or has with another value, as before.
 */
import type { MiddlewareHandler } from 'hono';

export function responseHeaders(headers: Readonly<Record<string, string>>): MiddlewareHandler {
  const entries = Object.entries(headers);
  return async (c, next) => {
    for (const [name, value] of entries) c.header(name, value);
    await next();
    for (const [name, value] of entries) if (c.res.headers.get(name) !== value) c.header(name, value);
  };
}
