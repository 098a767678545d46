import { describe, expect, it } from 'vitest';
import { decodeHttpError, networkError, timeoutError } from './errors';

describe('decodeHttpError', () => {
  it('reads the spec 401 body and explains the key', () => {
    const e = decodeHttpError(
      401,
      'Unauthorized',
      JSON.stringify({ error: 'Unauthorized', message: 'Invalid or missing API key' }),
    );
    expect(e.status).toBe(401);
    expect(e.title).toBe('Not authenticated');
    expect(e.message).toBe('Invalid or missing API key');
    expect(e.guidance).toMatch(/API key/);
  });

  it('reads the deployed 401 body {detail: string}', () => {
    const e = decodeHttpError(401, '', JSON.stringify({ detail: 'Not authenticated' }));
    expect(e.message).toBe('Not authenticated');
    expect(e.detail).toBe('Not authenticated');
  });

  it('reads the deployed 422 body {detail: [{loc, msg, type}]}', () => {
    const e = decodeHttpError(
      422,
      '',
      JSON.stringify({ detail: [{ loc: ['body', 'text'], msg: 'field required', type: 'missing' }] }),
    );
    expect(e.message).toBe('body.text: field required');
    expect(Array.isArray(e.detail)).toBe(true);
    expect(e.guidance).toMatch(/invalid/);
  });

  it('reads the reference 422 body with bundle issues', () => {
    const issues = [
      {
        code: 'unknown_param',
        message: 'Unknown parameter "x"',
        loc: ['agent_tools', 2, 'rules'],
        severity: 'error',
      },
    ];
    const e = decodeHttpError(
      422,
      '',
      JSON.stringify({
        error: 'Unprocessable Entity',
        message: 'Invalid agent settings bundle',
        detail: [],
        issues,
      }),
    );
    expect(e.message).toBe('Invalid agent settings bundle');
    expect(e.issues).toEqual(issues);
  });

  it('reads the spec 404 body', () => {
    const e = decodeHttpError(
      404,
      'Not Found',
      JSON.stringify({ error: 'Not Found', message: 'Task not found: t1' }),
    );
    expect(e.message).toBe('Task not found: t1');
    expect(e.guidance).toMatch(/base URL/);
  });

  it('handles a 403 without body and a 413 with plain text', () => {
    const forbidden = decodeHttpError(403, 'Forbidden', '');
    expect(forbidden.title).toBe('Not allowed');
    expect(forbidden.message).toMatch(/403/);
    expect(forbidden.guidance).toMatch(/permission/);
    const tooLarge = decodeHttpError(413, '', 'Payload Too Large');
    expect(tooLarge.message).toBe('Payload Too Large');
    expect(tooLarge.guidance).toMatch(/larger/);
  });

  it('does not echo an HTML error page', () => {
    const e = decodeHttpError(502, 'Bad Gateway', '<html><body>nginx</body></html>');
    expect(e.message).not.toMatch(/html/);
    expect(e.title).toBe('Bad gateway');
  });

  it('describes network failures and timeouts in plain words', () => {
    const n = networkError('http://localhost:9', new TypeError('Failed to fetch'));
    expect(n.status).toBe(0);
    expect(n.kind).toBe('network');
    expect(n.guidance).toMatch(/Could not reach http:\/\/localhost:9/);
    expect(timeoutError(30_000).message).toMatch(/30 s/);
  });
});
