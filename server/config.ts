/** Service configuration from command-line flags and the environment (flags win). Pure. */
import { delimiter } from 'node:path';
import { DEFAULT_DEV_KEY, parseApiKeys, type ApiKey } from './auth/api-keys';
import { isLoopbackName, normalizeOrigin } from './http/origins';
import { redactUrls, type UpstreamOptions } from './http/upstream';

export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  /** The PostgreSQL database shared by every instance (`THREADLINE_DATABASE_URL`); SQLite in `dataDir` when undefined. */
  databaseUrl: string | undefined;
  distDir: string;
  upstream: UpstreamOptions | undefined;
  apiKeys: ApiKey[];
  /** True when no keys were configured and the default `dev-key` is in use. */
  defaultKey: boolean;
  bodyLimitBytes: number | undefined;
  /** `THREADLINE_REQUEST_TIMEOUT_MS`: time a client has to send a whole request (see http/connections.ts). */
  requestTimeoutMs: number | undefined;
  /** `THREADLINE_CORS_ORIGINS`: origins besides the service's own whose pages may call the API. */
  corsOrigins: string[];
  /** `THREADLINE_ALLOWED_HOSTS`: `Host` names besides loopback names, IP addresses and `host`. */
  allowedHosts: string[];
  /** `--agents <dir>` (repeatable) and `THREADLINE_AGENTS` (folders separated by the path delimiter): agent projects to load. */
  agentDirs: string[];
  /**
   * The worker pool for validation and turns, each setting when given: `THREADLINE_WORKERS`
   * (threads), `THREADLINE_WORK_QUEUE` (requests waiting), `THREADLINE_WORK_QUEUE_PER_KEY`
   * (requests one API key may have waiting), `THREADLINE_WORK_DEADLINE_MS` (per piece of work,
   * waiting included), `THREADLINE_WORK_WAIT_MS` (waiting for a thread), `THREADLINE_WORKER_HEAP_MB`
   * (heap per thread).
   */
  work: {
    size?: number;
    queueLimit?: number;
    keyQueueLimit?: number;
    deadlineMs?: number;
    maxWaitMs?: number;
    heapLimitMb?: number;
  };
}

export class ConfigError extends Error {}

const FLAGS = ['port', 'host', 'data', 'upstream', 'dist', 'agents'] as const;
type Flag = (typeof FLAGS)[number];

function parseFlags(argv: readonly string[]): Partial<Record<Flag, string>> & { agentDirs: string[] } {
  const flags: Partial<Record<Flag, string>> & { agentDirs: string[] } = { agentDirs: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    const name = match?.[1] as Flag | undefined;
    if (!match || !name || !FLAGS.includes(name)) {
      throw new ConfigError(`Unknown argument: ${arg} (known: ${FLAGS.map((f) => `--${f}`).join(', ')})`);
    }
    const value = match[2] ?? argv[(i += 1)];
    if (value === undefined || value === '') throw new ConfigError(`--${name} needs a value`);
    if (name === 'agents') flags.agentDirs.push(value);
    else flags[name] = value;
  }
  return flags;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`Invalid port: ${value}`);
  return port;
}

function parseDatabaseUrl(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      'Invalid THREADLINE_DATABASE_URL (expected postgres://user:password@host:port/database)',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new ConfigError(`THREADLINE_DATABASE_URL must be a postgres:// URL (got ${url.protocol}//…)`);
  return value;
}

/**
 * The upstream URL without credentials: a `user:password@` in it becomes an `Authorization: Basic`
 * header (a URL is printed, logged and visible in process lists; prefer
 * `THREADLINE_UPSTREAM_HEADERS`). Messages never repeat the URL's credentials.
 */
function parseUpstream(
  value: string | undefined,
  env: Record<string, string | undefined>,
): UpstreamOptions | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`Invalid upstream URL: ${redactUrls(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`The upstream must be http(s): ${redactUrls(value)}`);
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        throw new ConfigError('Invalid credentials in the upstream URL (they are not shown here)');
      }
    };
    const credentials = `${decode(url.username)}:${decode(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  Object.assign(headers, parseHeaderLines(env.THREADLINE_UPSTREAM_HEADERS));
  const maxResponseBytes = positiveInteger(env, 'THREADLINE_UPSTREAM_MAX_BYTES');
  const timeoutMs = positiveInteger(env, 'THREADLINE_UPSTREAM_TIMEOUT_MS');
  return {
    url: url.href.replace(/\/+$/, ''),
    headers,
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  };
}

/** `Name: value` lines (newline-separated) → headers; the values are never quoted back. */
function parseHeaderLines(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of (value ?? '').split(/\r?\n/)) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon < 1 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name))
      throw new ConfigError(
        'Invalid THREADLINE_UPSTREAM_HEADERS: each line must be "Name: value" (the value is not shown here)',
      );
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function positiveInteger(env: Record<string, string | undefined>, name: string): number | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  if (!(Number.isInteger(Number(value)) && Number(value) > 0))
    throw new ConfigError(`Invalid ${name}: ${value}`);
  return Number(value);
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function parseOrigins(value: string | undefined): string[] {
  return list(value).map((origin) => {
    const normalized = normalizeOrigin(origin);
    if (!normalized || normalized !== origin.replace(/\/+$/, '').toLowerCase())
      throw new ConfigError(
        `Invalid origin in THREADLINE_CORS_ORIGINS: ${origin} (an origin is scheme://host[:port], e.g. http://localhost:5173)`,
      );
    return normalized;
  });
}

export function parseConfig(argv: readonly string[], env: Record<string, string | undefined>): ServiceConfig {
  const flags = parseFlags(argv);
  const limit = positiveInteger(env, 'THREADLINE_MAX_BODY_BYTES');
  const requestTimeoutMs = positiveInteger(env, 'THREADLINE_REQUEST_TIMEOUT_MS');
  const host = flags.host ?? env.HOST ?? '127.0.0.1';
  const defaultKey = !env.THREADLINE_API_KEYS?.trim();
  const apiKeys = parseApiKeys(env.THREADLINE_API_KEYS);
  // The development key is public (printed, documented) whether it is the default or listed.
  if (apiKeys.some((k) => k.key === DEFAULT_DEV_KEY) && !isLoopbackName(host)) {
    throw new ConfigError(
      `Refusing to listen on ${host} with the public development key dev-key: anyone who can reach this machine could use it. ` +
        'Set your own keys, e.g. THREADLINE_API_KEYS="$(openssl rand -hex 24)=*" (see the README\'s security section), or listen on 127.0.0.1.',
    );
  }
  return {
    port: parsePort(flags.port ?? env.PORT ?? '8787'),
    host,
    dataDir: flags.data ?? env.THREADLINE_DATA ?? './.threadline',
    databaseUrl: parseDatabaseUrl(env.THREADLINE_DATABASE_URL),
    distDir: flags.dist ?? env.THREADLINE_DIST ?? 'dist',
    upstream: parseUpstream(flags.upstream ?? env.THREADLINE_UPSTREAM, env),
    apiKeys,
    defaultKey,
    bodyLimitBytes: limit,
    requestTimeoutMs,
    corsOrigins: parseOrigins(env.THREADLINE_CORS_ORIGINS),
    allowedHosts: list(env.THREADLINE_ALLOWED_HOSTS),
    agentDirs: [
      ...(env.THREADLINE_AGENTS ?? '').split(delimiter).filter((d) => d.trim()),
      ...flags.agentDirs,
    ],
    work: definedOnly({
      size: positiveInteger(env, 'THREADLINE_WORKERS'),
      queueLimit: positiveInteger(env, 'THREADLINE_WORK_QUEUE'),
      keyQueueLimit: positiveInteger(env, 'THREADLINE_WORK_QUEUE_PER_KEY'),
      deadlineMs: positiveInteger(env, 'THREADLINE_WORK_DEADLINE_MS'),
      maxWaitMs: positiveInteger(env, 'THREADLINE_WORK_WAIT_MS'),
      heapLimitMb: positiveInteger(env, 'THREADLINE_WORKER_HEAP_MB'),
    }),
  };
}

function definedOnly<T extends Record<string, unknown>>(
  record: T,
): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}

/**
 * A database URL as it may be printed: the password of `user:password@` and of any query
 * parameter naming one (`?password=`, `sslpassword=`) replaced by `***`.
 */
export function redactedDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(a database URL that does not parse)';
  }
  if (parsed.password) parsed.password = '***';
  for (const name of [...parsed.searchParams.keys()])
    if (/pass/i.test(name)) parsed.searchParams.set(name, '***');
  return parsed.toString();
}
