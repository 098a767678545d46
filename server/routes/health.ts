/**
 * `GET /healthz` (mounted with `app.route()`): the service answers, and says whether its database
 * does and how many damaged stored values it has found.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { apiRouter } from '../http/api-router';
import type { AuthEnv } from '../http/auth';
import { damagedValues } from '../store/damaged-values';
import type { Store } from '../store/store';
import { healthRoute } from './definitions';

export function healthRoutes(store: Store): OpenAPIHono<AuthEnv> {
  const app = apiRouter();
  app.openapi(healthRoute, async (c) => {
    const { store: kind, reachable } = await store.health();
    const body = { store: { kind, reachable }, damaged_values: damagedValues() };
    return reachable
      ? c.json({ status: 'ok' as const, ...body }, 200)
      : c.json({ status: 'unavailable' as const, ...body }, 503);
  });
  return app;
}
