/**
 * CORS for browser clients of the API: any origin (keys travel in headers, never in cookies).
 * Preflights are Hono's `cors`; other requests only need `Access-Control-Allow-Origin: *`, which
 * is set before the handler runs (see `response-headers.ts`) rather than on the finished response.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { API_KEY_HEADERS } from '../../src/contract/api';
import { responseHeaders } from './response-headers';

export const SCOPE_HEADERS = ['x-aui-organization-id', 'x-aui-account-id', 'x-aui-user-id'] as const;

export function apiCors(): MiddlewareHandler {
  const preflight = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: [
      'content-type',
      'accept',
      'authorization',
      'x-api-key',
      ...API_KEY_HEADERS,
      ...SCOPE_HEADERS,
    ],
    maxAge: 600,
  });
  const anyOrigin = responseHeaders({ 'Access-Control-Allow-Origin': '*' });
  return (c, next) => (c.req.method === 'OPTIONS' ? preflight(c, next) : anyOrigin(c, next));
}
