/**
 * One structured JSON line per request: time, method, path, status, ms. Only the path is logged:
 * no query string, no headers, no body, so neither API keys nor user text ever reach the log.
 */
import type { MiddlewareHandler } from 'hono';

export type LogSink = (line: string) => void;

/**
 * stdout, written once per turn of the event loop: the lines of the requests answered in one turn
 * go out in one write instead of one write (a system call on a pipe) each; still one line per
 * request. Lines still pending when the process exits are written on its way out.
 */
function bufferedStdout(): LogSink {
  let pending: string[] = [];
  let exitHooked = false;
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    process.stdout.write(text);
  };
  return (line) => {
    if (!exitHooked) {
      process.once('exit', flush);
      exitHooked = true;
    }
    if (pending.length === 0) setImmediate(flush);
    pending.push(`${line}\n`);
  };
}

export const stdoutSink: LogSink = bufferedStdout();

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
