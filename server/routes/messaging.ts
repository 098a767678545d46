/** The five Messaging API v1 endpoints, bound to the messaging service (mounted with `app.route()`). */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import type { MessageResponse, RerunResponse } from '../../src/contract/api';
import type { Trace } from '../../src/contract/trace';
import { apiRouter } from '../http/api-router';
import type { AuthEnv } from '../http/auth';
import { createIdempotency, IDEMPOTENCY_HEADER } from '../http/idempotency';
import type { MessagingService, TraceList } from '../service/messaging-service';
import { createTaskRoute, getTraceRoute, listTracesRoute, rerunRoute, sendMessageRoute } from './definitions';

/**
 * Answers JSON text that already is a serialised `T` (stored trace JSON) as `c.json` would answer
 * `T`: same content type and status, typed for the route's response schema.
 */
function jsonText<T>(
  c: Context,
  text: string | ReadableStream<Uint8Array>,
): Response & TypedResponse<JSONParsed<T>, 200, 'json'> {
  return c.body(text, 200, { 'content-type': 'application/json' }) as unknown as Response &
    TypedResponse<JSONParsed<T>, 200, 'json'>;
}

/** A byte stream that pulls the next text piece only when the previous one was taken (back-pressure). */
function textStream(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

const truthy = (flag: string | undefined) => flag === 'true' || flag === '1';

export function messagingRoutes(service: MessagingService): OpenAPIHono<AuthEnv> {
  const app = apiRouter();
  app.openapi(createTaskRoute, async (c) =>
    c.json(await service.createTask(c.get('apiKey'), c.req.valid('json')), 200),
  );

  const idempotency = createIdempotency();
  app.openapi(sendMessageRoute, async (c) => {
    const body = c.req.valid('json');
    const includeTrace = truthy(c.req.valid('query').include_trace);
    const message = await idempotency.run(
      c.get('apiKey').key,
      c.req.header(IDEMPOTENCY_HEADER),
      [body, includeTrace],
      () => service.sendMessageJson(c.get('apiKey'), body, includeTrace),
    );
    return jsonText<MessageResponse>(c, message);
  });

  app.openapi(rerunRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await service.rerunJson(c.get('apiKey'), body, truthy(c.req.valid('query').include_trace));
    return jsonText<RerunResponse>(c, result);
  });

  // The traces are answered as stored JSON text, without parsing and serialising them again,
  // streamed a piece at a time as the client takes them.
  app.openapi(listTracesRoute, async (c) => {
    const pieces = await service.traceList(
      c.get('apiKey'),
      c.req.valid('param').task_id,
      c.req.valid('query'),
    );
    return jsonText<TraceList>(c, textStream(pieces));
  });

  app.openapi(getTraceRoute, async (c) => {
    const { task_id, interaction_id } = c.req.valid('param');
    return jsonText<Trace>(c, await service.getTraceJson(c.get('apiKey'), task_id, interaction_id));
  });
  return app;
}
