/** The five Messaging API v1 endpoints, bound to the messaging service. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import type { Trace } from '../../src/contract/trace';
import type { AuthEnv } from '../http/auth';
import type { MessagingService, TraceList } from '../service/messaging-service';
import { createTaskRoute, getTraceRoute, listTracesRoute, rerunRoute, sendMessageRoute } from './definitions';

/**
 * Answers JSON text that already is a serialised `T` (stored trace JSON) as `c.json` would answer
 * `T`: same content type and status, typed for the route's response schema.
 */
function jsonText<T>(c: Context, text: string): Response & TypedResponse<JSONParsed<T>, 200, 'json'> {
  return c.body(text, 200, { 'content-type': 'application/json' }) as unknown as Response &
    TypedResponse<JSONParsed<T>, 200, 'json'>;
}

const truthy = (flag: string | undefined) => flag === 'true' || flag === '1';

export function registerMessagingRoutes(app: OpenAPIHono<AuthEnv>, service: MessagingService): void {
  app.openapi(createTaskRoute, async (c) =>
    c.json(await service.createTask(c.get('apiKey'), c.req.valid('json')), 200),
  );

  app.openapi(sendMessageRoute, async (c) => {
    const body = c.req.valid('json');
    const message = await service.sendMessage(
      c.get('apiKey'),
      body,
      truthy(c.req.valid('query').include_trace),
    );
    return c.json(message, 200);
  });

  app.openapi(rerunRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await service.rerun(c.get('apiKey'), body, truthy(c.req.valid('query').include_trace));
    return c.json(result, 200);
  });

  // The traces are answered as stored JSON text, without parsing and serialising them again.
  app.openapi(listTracesRoute, async (c) => {
    const traces = await service.listTracesJson(
      c.get('apiKey'),
      c.req.valid('param').task_id,
      c.req.valid('query'),
    );
    return jsonText<TraceList>(c, traces);
  });

  app.openapi(getTraceRoute, async (c) => {
    const { task_id, interaction_id } = c.req.valid('param');
    return jsonText<Trace>(c, await service.getTraceJson(c.get('apiKey'), task_id, interaction_id));
  });
}
