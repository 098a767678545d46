import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { AccessDeniedError, InvalidInputError, NotFoundError } from '../service/errors';
import { WorkRefusedError } from '../work/pool';
import { apiErrorOf, errorAnswers } from './error-answers';
import { ApiError } from './errors';

describe('apiErrorOf', () => {
  it('answers a missing thing with 404 and its message only', () => {
    const error = apiErrorOf(new NotFoundError('Task not found: t-1'))!;
    expect(error.status).toBe(404);
    expect(error.body).toEqual({ error: 'Not Found', message: 'Task not found: t-1' });
  });

  it('answers a refused agent with 403 naming the key header', () => {
    const error = apiErrorOf(new AccessDeniedError('card-disputes'))!;
    expect(error.status).toBe(403);
    expect(error.body).toEqual({
      error: 'Forbidden',
      message: 'This API key may not use agent: card-disputes',
      detail: [
        {
          loc: ['header', 'x-service-api-key'],
          msg: 'This API key may not use agent: card-disputes',
          type: 'forbidden',
        },
      ],
    });
  });

  it('places an invalid field under the request body', () => {
    const error = apiErrorOf(
      InvalidInputError.at(['agent', 'version_id'], 'Unknown version', 'unknown_version'),
    )!;
    expect(error.status).toBe(422);
    expect(error.body).toEqual({
      error: 'Unprocessable Entity',
      message: 'Unknown version',
      detail: [{ loc: ['body', 'agent', 'version_id'], msg: 'Unknown version', type: 'unknown_version' }],
    });
  });

  it("passes the HTTP layer's own errors through and leaves any other error alone", () => {
    const own = new ApiError(401, { error: 'Unauthorized', message: 'Invalid or missing API key' });
    expect(apiErrorOf(own)).toBe(own);
    expect(apiErrorOf(new Error('boom'))).toBeUndefined();
  });
});

describe('work the worker pool did not carry out', () => {
  it('is a 503 with Retry-After that says nothing was stored, for each reason', async () => {
    const app = new Hono();
    let reason: 'busy' | 'deadline' | 'crashed' = 'crashed';
    app.get('/', () => {
      throw new WorkRefusedError(reason, 'The work for this request stopped unexpectedly.');
    });
    app.onError(errorAnswers(() => {}));
    for (const [which, retryAfter] of [
      ['crashed', '2'],
      ['busy', '2'],
      ['deadline', '5'],
    ] as const) {
      reason = which;
      const response = await app.request('/');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe(retryAfter);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe('Service Unavailable');
      expect(body.message).toMatch(
        /^The work for this request stopped unexpectedly\. Nothing was stored\. Retry/,
      );
    }
  });
});

describe('an invalid bundle', () => {
  it('carries every issue and prefixes error locations with the bundle field', () => {
    const issues = [
      {
        code: 'unknown_parameter',
        message: 'Unknown parameter: amount',
        loc: ['agent_tools', 0],
        severity: 'error' as const,
      },
      {
        code: 'naming',
        message: 'Tool codes are SCREAMING_SNAKE_CASE',
        loc: ['agent_tools', 1, 'code'],
        severity: 'warning' as const,
      },
    ];
    const error = apiErrorOf(InvalidInputError.bundle(issues, ['agent_settings_bundle']))!;
    expect(error.status).toBe(422);
    expect(error.body.issues).toEqual(issues);
    expect(error.body.detail).toEqual([
      {
        loc: ['body', 'agent_settings_bundle', 'agent_tools', 0],
        msg: 'Unknown parameter: amount',
        type: 'unknown_parameter',
      },
    ]);
    expect(error.body.message).toContain('1 error');
  });
});
