/**
 * Network isolation for the browser tests. Playwright's global setup starts this tiny proxy on
 * the run's guard port and the config points the browser at it (`use.proxy`). Chromium never
 * proxies loopback, so anything that reaches the proxy was on its way off the machine: the proxy
 * refuses it and appends it to the run's leak log. The global teardown (the function the setup
 * returns) reads the log over everything the run requested and fails the run when it is not
 * empty, whichever specs ran and in whatever order.
 *
 * One host is answered instead of refused, `PROBE_HOST`, so `network-guard.spec.ts` can prove the
 * browser really sends off-machine requests here (a guard that is not wired in would pass
 * vacuously); the same spec starts a second guard of its own to show a refused request is logged
 * and fails the check, without touching the run's log.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname } from 'node:path';
import { e2ePorts } from './ports';

export const PROBE_HOST = 'network-guard.probe';
export const PROBE_BODY = 'network guard: intercepted';
export const BLOCKED_BODY = 'Blocked by the e2e network guard: tests must not leave this machine.';

export function leakLogPath(guardPort: number): string {
  return `.e2e/network-leaks-${guardPort}.log`;
}

function record(log: string, what: string) {
  appendFileSync(log, `${JSON.stringify({ time: new Date().toISOString(), request: what })}\n`);
}

/** The requests a guard refused, in order ("METHOD url" or "CONNECT host:port"). */
export function readLeaks(log: string): string[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { request: string }).request);
}

/** Throws, naming every request, when a guard refused any. */
export function assertNoLeaks(log: string): void {
  const leaks = readLeaks(log);
  if (leaks.length === 0) return;
  throw new Error(
    `${leaks.length} request(s) tried to leave this machine during the browser tests ` +
      `(refused by the network guard):\n${leaks.map((l) => `  ${l}`).join('\n')}`,
  );
}

export interface Guard {
  port: number;
  log: string;
  close: () => Promise<void>;
}

/** Starts a guard on `port` (0: any free port) that logs refused requests to `log` (emptied first). */
export async function startGuard(port: number, log: string): Promise<Guard> {
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
    res.writeHead(403, { 'content-type': 'text/plain' }).end(BLOCKED_BODY);
  });
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    record(log, `CONNECT ${req.url}`);
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Playwright global setup: starts the run's guard; the returned global teardown stops it and checks its log. */
export default async function startNetworkGuard(): Promise<() => Promise<void>> {
  const { guard: port } = e2ePorts();
  const guard = await startGuard(port, leakLogPath(port));
  return async () => {
    await guard.close();
    assertNoLeaks(guard.log);
  };
}
