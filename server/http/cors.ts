/** CORS for browser clients of the API: any origin (keys travel in headers, never in cookies). */
import { cors } from 'hono/cors';
import { API_KEY_HEADERS } from '../../src/contract/api';

export const SCOPE_HEADERS = ['x-aui-organization-id', 'x-aui-account-id', 'x-aui-user-id'] as const;

export function apiCors() {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['content-type', 'accept', 'authorization', 'x-api-key', ...API_KEY_HEADERS, ...SCOPE_HEADERS],
    maxAge: 600,
  });
}
