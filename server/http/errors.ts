/**
 * Error bodies. The spec's bodies for 401 and 404 (`{error, message}`); 403, 413, 415 and 422
 * add `detail: [{loc, msg, type}]` (the deployed service's shape), and an invalid bundle's 422
 * adds `issues`. The HTTP layer throws these itself; the service's refusals are turned into them
 * by `error-answers.ts`.
 */
import type { z } from 'zod';
import type { BundleIssue, ErrorBody } from '../../src/contract/api';
import type { RefusalReason } from '../work/pool';

type ErrorDetail = NonNullable<ErrorBody['detail']>[number];
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 500 | 502 | 503 | 504 | 507;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

const detailOf = (loc: ErrorDetail['loc'], msg: string, type: string): ErrorDetail[] => [{ loc, msg, type }];

export function unauthorized(): ApiError {
  return new ApiError(401, { error: 'Unauthorized', message: 'Invalid or missing API key' });
}

/** A key that may not use an agent (the message names it). */
export function forbidden(message: string): ApiError {
  return new ApiError(403, {
    error: 'Forbidden',
    message,
    detail: detailOf(['header', 'x-service-api-key'], message, 'forbidden'),
  });
}

export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError(404, { error: 'Not Found', message: `No such endpoint: ${method} ${path}` });
}

export function unprocessable(message: string, detail: ErrorDetail[], issues?: BundleIssue[]): ApiError {
  return new ApiError(422, { error: 'Unprocessable Entity', message, detail, ...(issues ? { issues } : {}) });
}

export function payloadTooLarge(limit: number): ApiError {
  const message = `Request body is larger than the limit of ${limit} bytes`;
  return new ApiError(413, {
    error: 'Payload Too Large',
    message,
    detail: detailOf(['body'], message, 'too_large'),
  });
}

export function unsupportedMediaType(contentType: string | undefined): ApiError {
  const message = `Request body must be JSON (Content-Type: application/json); got ${contentType ? `"${contentType}"` : 'no Content-Type'}`;
  return new ApiError(415, {
    error: 'Unsupported Media Type',
    message,
    detail: detailOf(['header', 'content-type'], message, 'media_type'),
  });
}

export function malformedJson(reason: string): ApiError {
  const message = `Request body is not valid JSON: ${reason}`;
  return unprocessable(message, detailOf(['body'], message, 'json_invalid'));
}

/** The database could not be reached: nothing of this request was acknowledged, and a retry may succeed. */
export function storeUnavailable(): ApiError {
  return new ApiError(503, {
    error: 'Service Unavailable',
    message:
      'The database is unreachable, so this request was not carried out. Retry in a few seconds; if it lasts, check that the database server is running and reachable from the service.',
  });
}

/** Seconds a client is told to wait (`Retry-After`) when the worker pool refused its work. */
export const WORK_RETRY_AFTER_S: Record<RefusalReason, number> = { busy: 2, deadline: 5, crashed: 2 };

const WORK_ADVICE: Record<RefusalReason, string> = {
  busy: 'Retry after the time in Retry-After.',
  deadline:
    'Retry later; if it keeps happening, the bundle or the conversation needs more work than this service allows per request: make it smaller.',
  crashed: 'Retry after the time in Retry-After; if it keeps happening, make the bundle smaller.',
};

/** 503 for work the pool did not carry out (busy, over its deadline, its worker died); nothing was stored. */
export function workRefused(reason: RefusalReason, message: string): ApiError {
  return new ApiError(503, {
    error: 'Service Unavailable',
    message: `${message} Nothing was stored. ${WORK_ADVICE[reason]}`,
  });
}

export function internalError(): ApiError {
  return new ApiError(500, {
    error: 'Internal Server Error',
    message: 'The service failed to handle this request',
  });
}

export type RequestPart = 'body' | 'query' | 'path' | 'header';

/** zod issues → `[{loc, msg, type}]` with FastAPI-style locations such as `["body", "text"]`. */
function zodIssuesToDetail(
  issues: readonly z.core.$ZodIssue[],
  part: RequestPart,
  input: unknown,
): ErrorDetail[] {
  return issues.map((issue) => {
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    return {
      loc: [part, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
      msg: missing ? 'Field required' : issue.message,
      type: missing ? 'missing' : issue.code,
    };
  });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function validationError(
  issues: readonly z.core.$ZodIssue[],
  part: RequestPart,
  input: unknown,
): ApiError {
  const detail = zodIssuesToDetail(issues, part, input);
  const summary = detail
    .slice(0, 3)
    .map((d) => `${d.loc.join('.')}: ${d.msg}`)
    .join('; ');
  return unprocessable(
    `Invalid request: ${summary}${detail.length > 3 ? `; and ${detail.length - 3} more` : ''}`,
    detail,
  );
}
