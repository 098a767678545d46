/**
 * Network isolation for the browser tests. Playwright's global setup starts this tiny proxy and
 * the config points the browser at it (`use.proxy`). Chromium never proxies loopback, so anything
 * that reaches the proxy was on its way off the machine: the proxy refuses it and appends it to a
 * log, and the last spec (`zz-network-isolation.spec.ts`) asserts that the log is empty.
 *
 * One host is answered instead of refused, `PROBE_HOST`, so that spec can prove the browser
 * really sends off-machine requests here (a guard that is not wired in would pass vacuously).
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { dirname } from 'node:path';

export const PROBE_HOST = 'network-guard.probe';
export const PROBE_BODY = 'network guard: intercepted';

export function guardPort(e2ePort: number): number {
  return e2ePort + 1000;
}

export function leakLogPath(e2ePort: number): string {
  return `.e2e/network-leaks-${e2ePort}.log`;
}

const e2ePort = () => Number(process.env.E2E_PORT ?? 8790);

function record(log: string, what: string) {
  appendFileSync(log, `${JSON.stringify({ time: new Date().toISOString(), request: what })}\n`);
}

/** Playwright global setup: starts the guard; the returned function stops it. */
export default async function startNetworkGuard(): Promise<() => Promise<void>> {
  const port = e2ePort();
  const log = leakLogPath(port);
  mkdirSync(dirname(log), { recursive: true });
  writeFileSync(log, '');

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      host = req.headers.host ?? '';
    }
    if (host === PROBE_HOST) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(PROBE_BODY);
      return;
    }
    record(log, `${req.method} ${url}`);
    res
      .writeHead(403, { 'content-type': 'text/plain' })
      .end('Blocked by the e2e network guard: tests must not leave this machine.');
  });
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    record(log, `CONNECT ${req.url}`);
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(guardPort(port), '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
