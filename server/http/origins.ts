/**
 * Which hosts and origins may talk to the service. A service on localhost is reachable by every
 * web page its user opens, so (like Vite's and Jupyter's dev servers):
 *
 * - the `Host` header must be a loopback name (`localhost`, `*.localhost`), an IP address, the
 *   host the service was told to listen on, or a name listed in `THREADLINE_ALLOWED_HOSTS`; any
 *   other name is a DNS-rebinding page (a foreign domain resolved to this machine) → 403. An IP
 *   address cannot be rebound, so it is always fine;
 * - a cross-origin request (one with an `Origin` header) is answered only for the service's own
 *   origin (the one in its `Host` header) and the origins listed in `THREADLINE_CORS_ORIGINS`;
 *   any other origin → 403, preflights included, and no `Access-Control-Allow-Origin` header.
 *
 * Pure checks first, then the two middlewares.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { API_KEY_HEADERS } from '../../src/contract/api';
import { ApiError } from './errors';

const SCOPE_HEADERS = ['x-aui-organization-id', 'x-aui-account-id', 'x-aui-user-id'] as const;

export interface OriginPolicy {
  /** The host the service listens on (`--host`); a wildcard address adds nothing. */
  listenHost?: string;
  /** More `Host` names to accept: exact names, or `.example.com` for the name and its subdomains. */
  allowedHosts?: readonly string[];
  /** More origins whose pages may call the API, e.g. `http://localhost:5173`. */
  corsOrigins?: readonly string[];
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]', '']);

/** `Host` header value → lower-case host name without port or trailing dot (IPv6 keeps its brackets). */
function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  const name = lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : lower.split(':')[0]!;
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

function isIpAddress(name: string): boolean {
  return IPV4.test(name) || (name.startsWith('[') && name.endsWith(']'));
}

/** A host name (no port) that always means this machine: `localhost` and its subdomains, 127.0.0.0/8, `::1`. */
export function isLoopbackName(name: string): boolean {
  const n = name
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return n === 'localhost' || n.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(n) || n === '::1';
}

function isAllowedHost(host: string | undefined, policy: OriginPolicy): boolean {
  // HTTP/1.1 requires a Host header (Node refuses requests without one); browsers always send it.
  if (host === undefined) return true;
  const name = hostName(host);
  if (isLoopbackName(name) || isIpAddress(name)) return true;
  const listen = policy.listenHost?.toLowerCase();
  if (listen && !WILDCARD_ADDRESSES.has(listen) && hostName(listen) === name) return true;
  return (policy.allowedHosts ?? []).some((entry) => {
    const allowed = entry.trim().toLowerCase();
    return allowed.startsWith('.') ? name === allowed.slice(1) || name.endsWith(allowed) : name === allowed;
  });
}

/** `http://Example.com:80/` → `http://example.com`; `undefined` when it is not an http(s) origin. */
export function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function isAllowedOrigin(origin: string, host: string | undefined, policy: OriginPolicy): boolean {
  const normalized = normalizeOrigin(origin);
  if (!normalized) return false; // `null` (sandboxed frames, files) and anything odd
  if (host !== undefined && new URL(normalized).host === new URL(`http://${host.trim()}`).host) return true;
  return (policy.corsOrigins ?? []).some((allowed) => normalizeOrigin(allowed) === normalized);
}

function forbiddenHost(host: string): ApiError {
  const name = hostName(host);
  const message = `Host not allowed: ${name}. This service answers only loopback names, IP addresses and the hosts listed in THREADLINE_ALLOWED_HOSTS; to reach it as ${name}, start it with THREADLINE_ALLOWED_HOSTS=${name}`;
  return new ApiError(403, {
    error: 'Forbidden',
    message,
    detail: [{ loc: ['header', 'host'], msg: message, type: 'host_not_allowed' }],
  });
}

function forbiddenOrigin(origin: string): ApiError {
  const message = `Origin not allowed: ${origin}. Pages on other origins may not call this service; to allow this one, start it with THREADLINE_CORS_ORIGINS=${normalizeOrigin(origin) ?? origin}`;
  return new ApiError(403, {
    error: 'Forbidden',
    message,
    detail: [{ loc: ['header', 'origin'], msg: message, type: 'origin_not_allowed' }],
  });
}

/** Every path: a request naming a host that is not this machine's is refused before anything else runs. */
export function hostGuard(policy: OriginPolicy): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host');
    if (!isAllowedHost(host, policy)) throw forbiddenHost(host!);
    return next();
  };
}

const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'x-api-key',
  'idempotency-key',
  ...API_KEY_HEADERS,
  ...SCOPE_HEADERS,
].join(', ');

/**
 * CORS for the API paths. Keys travel in headers, never cookies, so credentials are not allowed.
 * `Access-Control-Allow-Origin` is set before the handler runs (see `response-headers.ts` for why)
 * and checked again on responses built outside the context, such as the upstream proxy's, so an
 * upstream's own CORS headers never reach the browser in place of this policy.
 */
export function apiCors(policy: OriginPolicy): MiddlewareHandler {
  return async (c: Context, next) => {
    const origin = c.req.header('origin');
    c.header('Vary', 'Origin');
    if (origin === undefined) return next();
    if (!isAllowedOrigin(origin, c.req.header('host'), policy)) throw forbiddenOrigin(origin);
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Allow-Methods', ALLOW_METHODS);
      c.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
      c.header('Access-Control-Max-Age', '600');
      return c.body(null, 204);
    }
    c.header('Access-Control-Allow-Origin', origin);
    await next();
    if (c.res.headers.get('access-control-allow-origin') !== origin) {
      c.header('Access-Control-Allow-Origin', origin);
    }
  };
}
