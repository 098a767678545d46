/**
 * One structured JSON line per request: time, method, path, status, ms. Only the path is logged:
 * no query string, no headers, no body, so neither API keys nor user text ever reach the log.
 */
import type { MiddlewareHandler } from 'hono';

export type LogSink = (line: string) => void;

export const stdoutSink: LogSink = (line) => process.stdout.write(`${line}\n`);

export function requestLog(sink: LogSink): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    sink(
      JSON.stringify({
        time: new Date().toISOString(),
        level: c.res.status >= 500 ? 'error' : 'info',
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
      }),
    );
  };
}
