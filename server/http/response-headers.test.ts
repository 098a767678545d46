import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { responseHeaders } from './response-headers';

describe('responseHeaders', () => {
  const app = new Hono();
  app.use('*', responseHeaders({ 'X-Frame-Options': 'DENY', 'Access-Control-Allow-Origin': '*' }));
  app.get('/json', (c) => c.json({ ok: true }));
  app.get(
    '/raw',
    () =>
      new Response('{}', {
        headers: { 'content-type': 'application/json', 'x-frame-options': 'SAMEORIGIN' },
      }),
  );
  app.get('/throws', () => {
    throw new Error('boom');
  });
  app.onError((_error, c) => c.text('failed', 500));

  it('gives a response built by the context, one built outside it and an error response every header', async () => {
    for (const path of ['/json', '/raw', '/throws', '/missing']) {
      const response = await app.request(path);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
    }
    expect(await (await app.request('/json')).json()).toEqual({ ok: true });
    expect((await app.request('/raw')).headers.get('content-type')).toBe('application/json');
  });
});
