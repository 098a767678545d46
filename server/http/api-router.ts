/**
 * The router every group of routes is declared on (`routes/*`, mounted with `app.route()`):
 * a request that does not match its route's zod schemas is a 422 naming each field.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AuthEnv } from './auth';
import { validationError, type RequestPart } from './errors';

const PARTS: Record<string, RequestPart> = { json: 'body', query: 'query', param: 'path', header: 'header' };

export function apiRouter(): OpenAPIHono<AuthEnv> {
  return new OpenAPIHono<AuthEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const input = (result as { data?: unknown }).data;
        throw validationError(result.error.issues, PARTS[result.target] ?? 'body', input);
      }
    },
  });
}
