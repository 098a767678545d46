/** API key authentication: `x-service-api-key` or `x-aui-api-key`; 401 when missing or unknown. */
import type { MiddlewareHandler } from 'hono';
import { API_KEY_HEADERS } from '../../src/contract/api';
import type { ApiKey, KeyRing } from '../auth/api-keys';
import { unauthorized } from './errors';

export interface AuthEnv {
  Variables: { apiKey: ApiKey };
}

export function requireApiKey(ring: KeyRing): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    let key: ApiKey | undefined;
    for (const header of API_KEY_HEADERS) key ??= ring.find(c.req.header(header));
    if (!key) throw unauthorized();
    c.set('apiKey', key);
    return next();
  };
}
