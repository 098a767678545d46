/**
 * API key authentication: `x-service-api-key` or `x-aui-api-key`; 401 when missing or unknown.
 * With `foreignKeys` (upstream mode, for helpers that hold nothing per key), a key this service
 * does not hold is not judged: any presented key passes, with access to no agent.
 */
import type { MiddlewareHandler } from 'hono';
import { API_KEY_HEADERS } from '../../src/contract/api';
import type { ApiKey, KeyRing } from '../auth/api-keys';
import { unauthorized } from './errors';

export interface AuthEnv {
  Variables: { apiKey: ApiKey };
}

/** Every header a client may carry its key in (wire-compat), for "a key was presented". */
const PRESENTED_KEY_HEADERS = [...API_KEY_HEADERS, 'x-api-key', 'authorization'];

export function requireApiKey(
  ring: KeyRing,
  opts: { foreignKeys?: boolean } = {},
): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    let key: ApiKey | undefined;
    for (const header of API_KEY_HEADERS) key ??= ring.find(c.req.header(header));
    if (!key && opts.foreignKeys && PRESENTED_KEY_HEADERS.some((h) => c.req.header(h)))
      key = { key: '', agents: [] };
    if (!key) throw unauthorized();
    c.set('apiKey', key);
    return next();
  };
}
