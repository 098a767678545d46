/**
 * How long a client may take. Node's defaults let a client trickle its headers for a minute and
 * its body for five (checked every 30 s), so a thousand slow connections hold every file
 * descriptor for minutes and lock normal clients out. Here:
 *
 * - the whole request (headers and body) must arrive within `requestTimeoutMs` (default 30 s; a
 *   2 MB body at 70 KB/s), the headers alone within 10 s; Node answers 408 and closes;
 * - a connection with nothing to do is closed after 5 s between requests (keep-alive), and a
 *   socket with no traffic either way (a client that connects and says nothing, or stops reading
 *   an answer) after 10 s; a request that waits longer on purpose (the upstream proxy) extends
 *   it. (Node never fires a socket timeout longer than the headers timeout on a connection that
 *   has sent nothing yet, so the two stay equal);
 * - silence only counts against the client: once a request has arrived whole, the socket's
 *   inactivity timer stops until the answer starts (`judgeOnlyTheClient`), so a request the
 *   server is still working on (a send waiting on a database lock, a long replay) is answered,
 *   never dropped; the timer runs again while the answer is sent (a client that stops reading);
 * - the timeouts are checked every second rather than every 30.
 */
import type { Context } from 'hono';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export function connectionOptions(requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): ServerOptions {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
    keepAliveTimeout: Math.min(KEEP_ALIVE_TIMEOUT_MS, requestTimeoutMs),
    connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(requestTimeoutMs / 4))),
  };
}

/** The socket inactivity timeout for a server built with `connectionOptions`. */
export function idleTimeoutMs(requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): number {
  return Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
}

/** How long a socket may stay silent while its answer is sent, when longer than the default. */
const silenceAllowed = new WeakMap<Socket, number>();

/** Lets one request's socket stay silent for `ms` (a proxied request waiting on its upstream). */
export function allowSilence(socket: Socket | undefined, ms: number): void {
  if (!socket) return;
  silenceAllowed.set(socket, Math.max(ms, silenceAllowed.get(socket) ?? 0));
  if (socket.timeout !== undefined && socket.timeout > 0 && socket.timeout < ms) socket.setTimeout(ms);
}

/**
 * The socket inactivity timer judges the client only: it runs while the request arrives, stops
 * while the server works on it (nothing is expected of the client then), and runs again from the
 * first byte of the answer (a client that stops reading is cut).
 */
export function judgeOnlyTheClient(server: Server, idleMs: number): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    silenceAllowed.delete(socket);
    socket.setTimeout(idleMs);
    let answering = false;
    const working = () => {
      if (!answering && !socket.destroyed) socket.setTimeout(0);
    };
    if (req.complete) working();
    else {
      req.once('end', working);
      // A request without a body is complete once its headers are parsed, in the same pass.
      setImmediate(() => {
        if (req.complete) working();
      });
    }
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((...args: Parameters<typeof writeHead>) => {
      answering = true;
      if (!socket.destroyed) socket.setTimeout(Math.max(idleMs, silenceAllowed.get(socket) ?? 0));
      return writeHead(...args);
    }) as typeof res.writeHead;
  });
}

/** The status logged for a request its client abandoned (nginx's "client closed request"). */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Whether `error` is the client going away: an upload cut off mid-body, or the connection closed
 * before the answer. Nobody is left to answer, so this is no server fault.
 */
export function isClientAbort(c: Context, error: unknown): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (
    c.req.raw.signal.aborted ||
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    Boolean(incoming && (incoming.errored || (incoming.destroyed && !incoming.complete)))
  );
}
