/**
 * Every failure of a Messaging API call becomes one `ApiError`: the HTTP status (0 when the
 * service could not be reached), a short title, the service's own message when it sent one, and
 * plain-words guidance on what to do. Reads every error body listed in wire-compat: the spec's
 * `{error, message}`, the deployed service's `{detail: string}` and `{detail: [{loc, msg, type}]}`,
 * and the reference service's bundle `issues`.
 */
import { ErrorIn, type BundleIssue } from '../contract/api';

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'parse' | 'aborted';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status: number;
  title: string;
  message: string;
  guidance: string;
  issues?: BundleIssue[];
  detail?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly title: string;
  readonly guidance: string;
  readonly issues?: BundleIssue[];
  readonly detail?: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.title = init.title;
    this.guidance = init.guidance;
    if (init.issues) this.issues = init.issues;
    if (init.detail !== undefined) this.detail = init.detail;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found',
  408: 'Request timed out',
  409: 'Conflict',
  413: 'Request too large',
  422: 'Request rejected as invalid',
  429: 'Too many requests',
  500: 'Service error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timed out',
};

function guidanceFor(status: number): string {
  if (status === 401)
    return 'The service did not accept the API key. Open Connection settings and check the key and the header it is sent in (x-service-api-key for the reference service, x-aui-api-key for the deployed one).';
  if (status === 403)
    return 'The key was accepted but has no permission for this agent or task. Check the agent id, and the scope headers if your service needs them.';
  if (status === 404)
    return 'The service does not know this task or interaction. It may live on another server: check the base URL in Connection settings.';
  if (status === 413)
    return 'The request is larger than the service accepts. Shorten the message or the bundle.';
  if (status === 422)
    return 'The service rejected the request as invalid. The details below say which field.';
  if (status === 429) return 'The service is limiting requests. Wait a moment and try again.';
  if (status >= 500)
    return 'The service failed while handling the request. Try again; if it keeps failing, check the service logs.';
  return 'The request failed. Check the connection settings and try again.';
}

function locToText(loc: unknown): string {
  return Array.isArray(loc) ? loc.map(String).join('.') : '';
}

/** Decodes a non-2xx response body (already read as text) into an ApiError. */
export function decodeHttpError(status: number, statusText: string, bodyText: string): ApiError {
  let body: unknown;
  try {
    body = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    body = undefined;
  }
  const parsed = ErrorIn.safeParse(body);
  const title = TITLES[status] ?? (statusText || `HTTP ${status}`);
  let message = '';
  let detail: unknown;
  let issues: BundleIssue[] | undefined;
  if (parsed.success) {
    const b = parsed.data;
    detail = b.detail;
    issues = b.issues;
    if (b.message) message = b.message;
    else if (typeof b.detail === 'string') message = b.detail;
    else if (Array.isArray(b.detail) && b.detail.length > 0) {
      message = b.detail
        .map((d) => [locToText(d.loc), d.msg].filter(Boolean).join(': '))
        .filter(Boolean)
        .join('; ');
    } else if (b.error) message = b.error;
    if (!message && issues && issues.length > 0) message = issues.map((i) => i.message).join('; ');
  } else if (bodyText && bodyText.length < 300 && !bodyText.trimStart().startsWith('<')) {
    message = bodyText.trim();
  }
  if (!message) message = `The service answered ${status}${statusText ? ` ${statusText}` : ''}.`;
  return new ApiError({
    kind: 'http',
    status,
    title,
    message,
    guidance: guidanceFor(status),
    ...(issues ? { issues } : {}),
    ...(detail !== undefined ? { detail } : {}),
  });
}

export function networkError(baseUrl: string, cause: unknown): ApiError {
  return new ApiError({
    kind: 'network',
    status: 0,
    title: 'Service unreachable',
    message:
      cause instanceof Error && cause.message ? cause.message : 'The request did not reach the service.',
    guidance: `Could not reach ${baseUrl}. Check the base URL, that the service is running, and that it allows requests from this page (CORS).`,
  });
}

export function timeoutError(ms: number): ApiError {
  return new ApiError({
    kind: 'timeout',
    status: 0,
    title: 'No answer in time',
    message: `The service did not answer within ${Math.round(ms / 1000)} s.`,
    guidance: 'The service may be overloaded or stuck. Try again, or raise the timeout if the agent is slow.',
  });
}

export function abortedError(): ApiError {
  return new ApiError({
    kind: 'aborted',
    status: 0,
    title: 'Cancelled',
    message: 'The request was cancelled.',
    guidance: 'Nothing to do.',
  });
}

export function parseError(what: string, issues: string): ApiError {
  return new ApiError({
    kind: 'parse',
    status: 200,
    title: 'Unexpected answer',
    message: `The service's ${what} could not be read: ${issues}`,
    guidance:
      'The service answered with data Threadline does not understand. Check that the base URL points at a Messaging API v1 service.',
  });
}

/** Any thrown value, as an ApiError (for display). */
export function toApiError(e: unknown): ApiError {
  if (isApiError(e)) return e;
  return new ApiError({
    kind: 'network',
    status: 0,
    title: 'Something went wrong',
    message: e instanceof Error ? e.message : String(e),
    guidance: 'Try again.',
  });
}
