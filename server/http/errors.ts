/**
 * Error responses. The spec's bodies for 401 and 404 (`{error, message}`); 403, 413, 415 and 422
 * add `detail: [{loc, msg, type}]` (the deployed service's shape), and an invalid bundle's 422
 * adds `issues`.
 */
import type { z } from 'zod';
import type { BundleIssue, ErrorBody } from '../../src/contract/api';

type ErrorDetail = NonNullable<ErrorBody['detail']>[number];
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 422 | 500 | 502 | 503 | 504 | 507;

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

export function forbidden(agentId: string): ApiError {
  const message = `This API key may not use agent: ${agentId}`;
  return new ApiError(403, {
    error: 'Forbidden',
    message,
    detail: detailOf(['header', 'x-service-api-key'], message, 'forbidden'),
  });
}

export function taskNotFound(taskId: string): ApiError {
  return new ApiError(404, { error: 'Not Found', message: `Task not found: ${taskId}` });
}

export function interactionNotFound(interactionId: string): ApiError {
  return new ApiError(404, { error: 'Not Found', message: `Interaction not found: ${interactionId}` });
}

export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError(404, { error: 'Not Found', message: `No such endpoint: ${method} ${path}` });
}

export function unprocessable(message: string, detail: ErrorDetail[], issues?: BundleIssue[]): ApiError {
  return new ApiError(422, { error: 'Unprocessable Entity', message, detail, ...(issues ? { issues } : {}) });
}

/** A single-field 422, e.g. an unknown agent or version. */
export function invalidField(loc: ErrorDetail['loc'], message: string, type = 'value_error'): ApiError {
  return unprocessable(message, detailOf(loc, message, type));
}

export function invalidBundle(issues: BundleIssue[], loc: ErrorDetail['loc']): ApiError {
  const errors = issues.filter((i) => i.severity === 'error');
  const first = errors[0];
  const message = `Invalid agent settings bundle: ${errors.length} error${errors.length === 1 ? '' : 's'}${first ? ` (first: ${first.message})` : ''}`;
  return unprocessable(
    message,
    errors.map((i) => ({ loc: [...loc, ...i.loc], msg: i.message, type: i.code })),
    issues,
  );
}

/** A turn that would take more work than one request may use (the bundle's or the client's). */
export function bundleTooComplex(error: Error, clientBundle: boolean): ApiError {
  const loc = clientBundle ? ['body', 'agent_settings_bundle'] : ['body', 'task_id'];
  return unprocessable(error.message, detailOf(loc, error.message, 'bundle_too_complex'));
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

export function internalError(): ApiError {
  return new ApiError(500, {
    error: 'Internal Server Error',
    message: 'The service failed to handle this request',
  });
}

export type RequestPart = 'body' | 'query' | 'path' | 'header';

/** zod issues → `[{loc, msg, type}]` with FastAPI-style locations such as `["body", "text"]`. */
export function zodIssuesToDetail(
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
