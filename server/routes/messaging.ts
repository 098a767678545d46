/** The five Messaging API v1 endpoints, bound to the messaging service. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AuthEnv } from '../http/auth';
import type { MessagingService } from '../service/messaging-service';
import { createTaskRoute, getTraceRoute, listTracesRoute, rerunRoute, sendMessageRoute } from './definitions';

const truthy = (flag: string | undefined) => flag === 'true' || flag === '1';

export function registerMessagingRoutes(app: OpenAPIHono<AuthEnv>, service: MessagingService): void {
  app.openapi(createTaskRoute, async (c) => c.json(await service.createTask(c.get('apiKey'), c.req.valid('json')), 200));

  app.openapi(sendMessageRoute, async (c) => {
    const body = c.req.valid('json');
    const message = await service.sendMessage(c.get('apiKey'), body, truthy(c.req.valid('query').include_trace));
    return c.json(message, 200);
  });

  app.openapi(rerunRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await service.rerun(c.get('apiKey'), body, truthy(c.req.valid('query').include_trace));
    return c.json(result, 200);
  });

  app.openapi(listTracesRoute, async (c) => {
    const traces = await service.listTraces(c.get('apiKey'), c.req.valid('param').task_id, c.req.valid('query'));
    return c.json(traces, 200);
  });

  app.openapi(getTraceRoute, async (c) => {
    const { task_id, interaction_id } = c.req.valid('param');
    return c.json(await service.getTrace(c.get('apiKey'), task_id, interaction_id), 200);
  });
}
