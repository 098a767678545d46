/**
 * Forwarding `/v1/messaging/*` to a deployed Messaging API (`--upstream`), so the app served from
 * localhost can use it without cross-origin trouble. Method, path, query and body go through
 * unchanged, and so do the client's key and scope headers; nothing else of the browser's does.
 *
 * - Credentials: the URL never carries them here (config.ts moves a URL's `user:password@` into
 *   an `Authorization` header, and `THREADLINE_UPSTREAM_HEADERS` adds headers), and every message
 *   that could quote a URL goes through `redactUrls`.
 * - The answer is streamed through, never held whole, and cut at `maxResponseBytes`: a declared
 *   larger answer is a 502 naming the limit; one that grows past it while streaming is cut off
 *   (the client sees a broken transfer, never a complete-looking truncated answer).
 * - Time: no answer within `timeoutMs` → 504; the answer's first bytes are awaited before the
 *   status is sent (a stall there is a 504 too), later stalls of `timeoutMs` cut the transfer.
 * - 204 and 304 (bodiless statuses) pass through as they are.
 * - Only what a user of this service may do goes through: the configured upstream credentials
 *   (`headers`) are added only to a request carrying a key this service accepts (the local key
 *   header is then not forwarded); without one the request goes as the client sent it, so the
 *   upstream judges the client's own key. Only `application/json` answers are passed through on
 *   this origin (an HTML page would run as this service's, next to its stored keys): anything
 *   else is a 502 naming the content type. Paths are forwarded only when normalised: an encoded
 *   dot segment (`%2e%2e`), slash or backslash is a 400.
 */
import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import { API_KEY_HEADERS } from '../../src/contract/api';
import type { KeyRing } from '../auth/api-keys';
import { allowSilence } from './connections';
import { ApiError } from './errors';
import type { LogSink } from './request-log';
import { readBodyWithLimit } from './read-body';

export interface UpstreamOptions {
  /** The deployed service's base URL, without credentials. */
  url: string;
  /** Headers added to every forwarded request (credentials for the upstream); they win over the client's. */
  headers?: Readonly<Record<string, string>>;
  /** Largest answer passed through (default 64 MiB). */
  maxResponseBytes?: number;
  /** How long the upstream may take to start answering, and to send each next piece (default 120 s). */
  timeoutMs?: number;
}

const DEFAULT_UPSTREAM_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_UPSTREAM_TIMEOUT_MS = 120_000;

const FORWARDED_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'accept-language',
  'authorization',
  'x-api-key',
  'x-request-id',
];
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'last-modified',
  'retry-after',
  'x-request-id',
];
const BODILESS_STATUSES = new Set([101, 204, 205, 304]);

/** `https://user:secret@host/x` → `https://***@host/x`, wherever a URL appears in `text`. */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, '$1***@');
}

function forwardedHeaders(incoming: Headers, extra: Readonly<Record<string, string>> = {}): Headers {
  const out = new Headers();
  incoming.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (
      FORWARDED_REQUEST_HEADERS.includes(lower) ||
      lower.startsWith('x-aui-') ||
      lower === 'x-service-api-key'
    ) {
      out.set(lower, value);
    }
  });
  for (const [name, value] of Object.entries(extra)) out.set(name, value);
  return out;
}

/**
 * The request's headers for the upstream: the configured credentials only for a request whose key
 * this service accepts (that local key itself stays here), else the client's own headers alone.
 */
function upstreamHeaders(
  incoming: Headers,
  credentials: Readonly<Record<string, string>> | undefined,
  ring: KeyRing | undefined,
): Headers {
  if (!credentials || Object.keys(credentials).length === 0) return forwardedHeaders(incoming);
  const accepted = ring ? API_KEY_HEADERS.filter((h) => ring.find(incoming.get(h) ?? undefined)) : [];
  if (accepted.length === 0) return forwardedHeaders(incoming);
  const out = forwardedHeaders(incoming, credentials);
  for (const h of accepted) if (!(h in credentials)) out.delete(h);
  return out;
}

/** Why a request path is not forwarded as it is (an encoded dot segment, slash or backslash), or null. */
function unnormalisedPath(pathname: string): string | null {
  for (const segment of pathname.split('/')) {
    if (!segment.includes('%') && !segment.includes('\\')) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return `the path segment "${segment}" is not valid percent-encoding`;
    }
    if (decoded === '.' || decoded === '..') return `the path holds an encoded dot segment ("${segment}")`;
    if (/[/\\]/.test(decoded)) return `the path segment "${segment}" holds a slash or backslash`;
  }
  return null;
}

const JSON_ANSWER = /^application\/([\w.-]+\+)?json$/i;

/** `https://host/base` + `/v1/messaging/x?y` → `https://host/base/v1/messaging/x?y`. */
function upstreamUrl(base: string, requestUrl: string): string {
  const url = new URL(requestUrl);
  return `${base.replace(/\/+$/, '')}${url.pathname}${url.search}`;
}

const originOf = (base: string) => new URL(base).origin;

function badGateway(message: string): ApiError {
  return new ApiError(502, { error: 'Bad Gateway', message: redactUrls(message) });
}

function gatewayTimeout(base: string, ms: number): ApiError {
  return new ApiError(504, {
    error: 'Gateway Timeout',
    message: `The upstream service at ${originOf(base)} did not answer within ${ms / 1000} s`,
  });
}

function tooLarge(base: string, limit: number): ApiError {
  return badGateway(
    `The answer of the upstream service at ${originOf(base)} is larger than the limit of ${limit} bytes (THREADLINE_UPSTREAM_MAX_BYTES)`,
  );
}

/** Rejects after `ms` unless settled first; the timer is cleared either way. */
async function within<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new UpstreamTimeout()); // before onTimeout, whose abort rejects `promise` too
      onTimeout();
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

class UpstreamTimeout extends Error {}

/** An error whose stack is its message: what @hono/node-server prints when a streamed answer is cut. */
function cutOff(message: string): Error {
  const error = new Error(message);
  error.stack = `threadline: ${message}`;
  return error;
}

export function upstreamProxy(
  options: UpstreamOptions,
  bodyLimit: number,
  log: LogSink,
  fetchImpl: typeof fetch = fetch,
  ring?: KeyRing,
) {
  const base = options.url;
  const limit = options.maxResponseBytes ?? DEFAULT_UPSTREAM_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const logCut = (c: Context, reason: string) =>
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        level: 'error',
        msg: 'upstream answer cut off',
        method: c.req.method,
        path: c.req.path,
        reason,
      }),
    );

  return async (c: Context): Promise<Response> => {
    const method = c.req.method;
    const odd = unnormalisedPath(new URL(c.req.url).pathname);
    if (odd)
      throw new ApiError(400, {
        error: 'Bad Request',
        message: `Not forwarded: ${odd}. Send the path written plainly.`,
      });
    const body =
      method === 'GET' || method === 'HEAD' ? undefined : await readBodyWithLimit(c.req.raw, bodyLimit);
    allowSilence((c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket, timeoutMs + 5_000);
    const abort = new AbortController();
    // The client going away stops the upstream request too.
    const signal = AbortSignal.any([abort.signal, c.req.raw.signal]);
    let response: Response;
    try {
      response = await within(
        fetchImpl(upstreamUrl(base, c.req.url), {
          method,
          headers: upstreamHeaders(c.req.raw.headers, options.headers, ring),
          ...(body ? { body } : {}),
          redirect: 'manual',
          signal,
        }),
        timeoutMs,
        () => abort.abort(),
      );
    } catch (error) {
      if (error instanceof UpstreamTimeout) throw gatewayTimeout(base, timeoutMs);
      const cause =
        error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
      throw badGateway(`The upstream service at ${originOf(base)} could not be reached: ${cause}`);
    }

    const headers = new Headers();
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    if (BODILESS_STATUSES.has(response.status) || method === 'HEAD' || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      headers.delete('content-length');
      return new Response(null, { status: response.status, headers });
    }
    const type = response.headers.get('content-type') ?? '';
    if (!JSON_ANSWER.test(type.split(';')[0]!.trim())) {
      abort.abort();
      throw badGateway(
        `The upstream service at ${originOf(base)} answered ${response.status} with ${type ? `content type ${JSON.stringify(type.slice(0, 100))}` : 'no content type'}; only application/json answers are passed through`,
      );
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > limit) {
      abort.abort();
      throw tooLarge(base, limit);
    }

    const reader = response.body.getReader();
    const next = async () => {
      try {
        return await within(reader.read(), timeoutMs, () => abort.abort());
      } catch (error) {
        throw error instanceof UpstreamTimeout ? gatewayTimeout(base, timeoutMs) : error;
      }
    };
    // The first bytes before the status goes out: a stall or a failure here can still be answered.
    let first: Awaited<ReturnType<typeof next>>;
    try {
      first = await next();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw badGateway(
        `The upstream service at ${originOf(base)} broke off its answer: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    let size = first.value?.byteLength ?? 0;
    if (size > limit) {
      abort.abort();
      throw tooLarge(base, limit);
    }
    let pending: Uint8Array | undefined = first.value;
    const finished = first.done;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (pending) {
          controller.enqueue(pending);
          pending = undefined;
          return;
        }
        if (finished) return controller.close();
        let chunk: Awaited<ReturnType<typeof next>>;
        try {
          chunk = await next();
        } catch (error) {
          const reason = redactUrls(error instanceof Error ? error.message : String(error));
          logCut(c, reason);
          return controller.error(cutOff(`upstream answer cut off: ${reason}`));
        }
        if (chunk.done) return controller.close();
        size += chunk.value.byteLength;
        if (size > limit) {
          abort.abort();
          const reason = tooLarge(base, limit).message;
          logCut(c, reason);
          return controller.error(cutOff(`upstream answer cut off: ${reason}`));
        }
        controller.enqueue(chunk.value);
      },
      cancel() {
        abort.abort();
      },
    });
    return new Response(stream, { status: response.status, headers });
  };
}

/**
 * Upstream mode: the reference agents and their bundles describe this service's example agents,
 * not the deployed service's, so they answer 404 whatever the key (never a 401 for a key this
 * service does not hold), saying why.
 */
export function agentsNotOffered(base: string) {
  const origin = new URL(base).origin;
  return (c: Context): Response =>
    c.json(
      {
        error: 'Not Found',
        message:
          `Not offered in upstream mode: the Messaging API is forwarded to ${origin}, whose agents ` +
          'and bundles this service does not know. Type the agent id; import or paste a bundle.',
      },
      404,
    );
}
