/**
 * Every error a request can end with → its HTTP answer, in one place (the app's `onError`): the
 * service's refusals (`service/errors.ts`), the HTTP layer's own `ApiError`s, Hono's, an
 * unreachable database or work the worker pool did not carry out (503 with `Retry-After`), storage faults, a damaged stored value (500 saying
 * which), and anything else (a logged 500
 * that says nothing of the inside).
 */
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { UnofficialStatusCode } from 'hono/utils/http-status';
import { AccessDeniedError, ConflictError, InvalidInputError, NotFoundError } from '../service/errors';
import { StoredValueDamagedError } from '../store/damaged-values';
import { describeWhileServing, storageFault } from '../store/storage-faults';
import { StoreUnavailableError } from '../store/store';
import { WorkRefusedError } from '../work/pool';
import { CLIENT_CLOSED_REQUEST, isClientAbort } from './connections';
import {
  ApiError,
  forbidden,
  internalError,
  storeUnavailable,
  unprocessable,
  WORK_RETRY_AFTER_S,
  workRefused,
  type ErrorStatus,
} from './errors';
import type { LogSink } from './request-log';

const STATUS_LABELS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
};

/**
 * The answer for an `ApiError` (the HTTP layer's own) or a service refusal: 404 `{error, message}`,
 * 403 naming the key header, 422 with each problem's place in the request body (the service is
 * given the parsed body); undefined for any other error.
 */
export function apiErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof NotFoundError)
    return new ApiError(404, { error: 'Not Found', message: error.message });
  if (error instanceof ConflictError) return new ApiError(409, { error: 'Conflict', message: error.message });
  if (error instanceof AccessDeniedError) return forbidden(error.message);
  if (error instanceof InvalidInputError)
    return unprocessable(
      error.message,
      error.problems.map((p) => ({ loc: ['body', ...p.path], msg: p.message, type: p.type })),
      error.issues,
    );
  return undefined;
}

/** The app's `onError`: unexpected errors and storage faults are logged with the request's method and path. */
export function errorAnswers(log: LogSink): ErrorHandler {
  return (error: Error, c: Context) => {
    // Logged as 499 by the request log; the client is gone and reads nothing.
    if (isClientAbort(c, error)) return c.body(null, CLIENT_CLOSED_REQUEST as UnofficialStatusCode);
    if (error instanceof StoreUnavailableError) {
      const unavailable = storeUnavailable();
      c.header('retry-after', '2');
      return c.json(unavailable.body, unavailable.status);
    }
    if (error instanceof WorkRefusedError) {
      const refused = workRefused(error.reason, error.message);
      c.header('retry-after', String(WORK_RETRY_AFTER_S[error.reason]));
      return c.json(refused.body, refused.status);
    }
    // Found and logged where it was read (damaged-values.ts); the answer says which value.
    if (error instanceof StoredValueDamagedError)
      return c.json({ error: 'Internal Server Error', message: error.message }, 500);
    const answer = apiErrorOf(error);
    if (answer) {
      // The rest of an oversized body is never read: the connection cannot carry another request.
      if (answer.status === 413) c.header('connection', 'close');
      return c.json(answer.body, answer.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      const label = STATUS_LABELS[error.status] ?? 'Bad Request';
      return c.json(
        { error: label, message: error.message || 'The request could not be read' },
        error.status as ErrorStatus,
      );
    }
    const fault = storageFault(error);
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        level: 'error',
        msg: fault ? `storage fault: ${fault}` : 'unhandled error',
        method: c.req.method,
        path: c.req.path,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    if (fault) {
      const { status, ...body } = describeWhileServing(fault);
      return c.json(body, status);
    }
    const internal = internalError();
    return c.json(internal.body, internal.status);
  };
}
