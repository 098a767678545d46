/**
 * The one fetch client for the Messaging API. Connection settings (base URL, key header, key,
 * extra headers) come from a source the app registers at start-up, so this module depends on no
 * feature. The key travels only in a request header: never in a URL, never logged.
 */
import type { z } from 'zod';
import { abortedError, decodeHttpError, networkError, parseError, timeoutError } from './errors';
import { noteContact, noteFailure } from './reachability';

export interface ExtraHeader {
  name: string;
  value: string;
}

export interface ApiConfig {
  /** Without a trailing slash; '' means the page's own origin. */
  baseUrl: string;
  keyHeader: string;
  apiKey: string;
  extraHeaders: ExtraHeader[];
  timeoutMs: number;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

function pageOrigin(): string {
  return typeof location === 'undefined' ? 'http://127.0.0.1' : location.origin;
}

let configSource: () => ApiConfig = () => ({
  baseUrl: '',
  keyHeader: 'x-service-api-key',
  apiKey: '',
  extraHeaders: [],
  timeoutMs: DEFAULT_TIMEOUT_MS,
});

/** Called once by the app shell: where every request reads its connection settings. */
export function setApiConfigSource(source: () => ApiConfig): void {
  configSource = source;
}

export function currentApiConfig(): ApiConfig {
  return configSource();
}

export function resolveBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  return trimmed || pageOrigin();
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The headers of one request: JSON, the request's own headers (e.g. the acting user on a rerun),
 * then the user's extra headers (which win: the user chose them), then the key.
 */
export function buildHeaders(
  config: ApiConfig,
  hasBody: boolean,
  requestHeaders: Readonly<Record<string, string>> = {},
): Headers {
  const headers = new Headers({ accept: 'application/json' });
  if (hasBody) headers.set('content-type', 'application/json');
  for (const [name, value] of Object.entries(requestHeaders))
    if (value && HEADER_NAME.test(name)) headers.set(name, value);
  for (const h of config.extraHeaders) {
    const name = h.name.trim();
    if (name && HEADER_NAME.test(name)) headers.set(name, h.value);
  }
  const keyHeader = config.keyHeader.trim();
  if (config.apiKey && keyHeader && HEADER_NAME.test(keyHeader)) {
    if (keyHeader.toLowerCase() === 'authorization' && !/^\w+\s/.test(config.apiKey)) {
      headers.set('authorization', `Bearer ${config.apiKey}`);
    } else headers.set(keyHeader, config.apiKey);
  }
  return headers;
}

export type Query = Record<string, string | number | boolean | undefined>;

function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const url = new URL(resolveBaseUrl(baseUrl) + path);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

export interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  schema: S;
  /** What the response is, for error messages ("task", "trace list"). */
  what: string;
  signal?: AbortSignal;
  /** Overrides the configured connection (used by "Test connection" before saving). */
  config?: ApiConfig;
  /** Headers this request carries (wire-compat), sent when they have a value. */
  headers?: Readonly<Record<string, string>>;
}

export interface Timed<T> {
  data: T;
  /** Measured round trip in milliseconds, request start to parsed body. */
  ms: number;
}

/** Performs one request and parses the answer with its (tolerant) schema. */
export async function apiRequestTimed<S extends z.ZodType>(
  opts: RequestOptions<S>,
): Promise<Timed<z.output<S>>> {
  const config = opts.config ?? configSource();
  const url = buildUrl(config.baseUrl, opts.path, opts.query);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.timeoutMs || DEFAULT_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const started = performance.now();
  // Only the configured service's health is reported ("Test connection" tries another one).
  const report = opts.config === undefined;
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: opts.method ?? 'GET',
        headers: buildHeaders(config, opts.body !== undefined, opts.headers),
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: controller.signal,
        credentials: 'omit',
      });
    } catch (e) {
      if (opts.signal?.aborted && !timedOut) throw abortedError();
      const error = timedOut
        ? timeoutError(config.timeoutMs || DEFAULT_TIMEOUT_MS)
        : networkError(resolveBaseUrl(config.baseUrl), e);
      if (report) noteFailure(error.message);
      throw error;
    }
    if (report) noteContact();
    let text: string;
    try {
      text = await response.text();
    } catch (e) {
      if (timedOut) throw timeoutError(config.timeoutMs || DEFAULT_TIMEOUT_MS);
      throw networkError(resolveBaseUrl(config.baseUrl), e);
    }
    if (!response.ok) throw decodeHttpError(response.status, response.statusText, text);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw parseError(opts.what, 'the body is not JSON');
    }
    const parsed = opts.schema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw parseError(
        opts.what,
        first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'invalid',
      );
    }
    return { data: parsed.data, ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}

export async function apiRequest<S extends z.ZodType>(opts: RequestOptions<S>): Promise<z.output<S>> {
  return (await apiRequestTimed(opts)).data;
}
