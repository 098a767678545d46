/**
 * Builds the HTTP app: the Messaging API v1, the reference extensions, the OpenAPI document, the
 * built web app, and the cross-cutting layers (request log, security headers, CORS, auth, body
 * limits, error bodies). Testable without a socket: `app.fetch(request)`.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { ApiKey } from './auth/api-keys';
import { createKeyRing, parseApiKeys } from './auth/api-keys';
import { requireApiKey, type AuthEnv } from './http/auth';
import { apiCors } from './http/cors';
import {
  ApiError,
  internalError,
  routeNotFound,
  validationError,
  type ErrorStatus,
  type RequestPart,
} from './http/errors';
import { jsonBody } from './http/json-body';
import { requestLog, stdoutSink, type LogSink } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { mountSpa } from './http/spa';
import { agentsNotOffered, upstreamProxy } from './http/upstream';
import { healthRoute } from './routes/definitions';
import { registerMessagingRoutes } from './routes/messaging';
import { registerReferenceRoutes } from './routes/reference';
import { LineageService } from './service/lineage-service';
import { MessagingService } from './service/messaging-service';
import type { MessagingPorts } from './service/ports';
import { createKeyedSerializer } from './service/task-serializer';
import type { Store } from './store/store';

export const DEFAULT_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface AppOptions {
  store: Store;
  ports: MessagingPorts;
  /** Default: one `dev-key` for every agent. */
  apiKeys?: ApiKey[];
  /** The built web app to serve; none when omitted. */
  distDir?: string;
  /** Forward `/v1/messaging/*` to this deployed service instead of answering locally. */
  upstream?: string;
  bodyLimitBytes?: number;
  log?: LogSink;
  fetchUpstream?: typeof fetch;
}

const STATUS_LABELS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
};
const PARTS: Record<string, RequestPart> = { json: 'body', query: 'query', param: 'path', header: 'header' };
const isApiPath = (path: string) =>
  path.startsWith('/v1/') ||
  path.startsWith('/reference/') ||
  path === '/openapi.json' ||
  path === '/healthz';

export function createApp(options: AppOptions): OpenAPIHono<AuthEnv> {
  const log = options.log ?? stdoutSink;
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const ring = createKeyRing(options.apiKeys ?? parseApiKeys(undefined));
  const service = new MessagingService(options.store, options.ports, createKeyedSerializer());

  const app = new OpenAPIHono<AuthEnv>({
    defaultHook: (result, _c) => {
      if (!result.success) {
        const input = (result as { data?: unknown }).data;
        throw validationError(result.error.issues, PARTS[result.target] ?? 'body', input);
      }
    },
  });

  app.use('*', requestLog(log));
  app.use('*', securityHeaders());
  for (const path of ['/v1/*', '/reference/*', '/openapi.json']) app.use(path, apiCors());

  app.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));
  app.openAPIRegistry.registerComponent('securitySchemes', 'ServiceApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-service-api-key',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'AuiApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-aui-api-key',
  });
  app.doc('/openapi.json', {
    openapi: '3.0.3',
    info: {
      title: 'Threadline reference Messaging API',
      version: '1',
      description: 'The Messaging API v1 (tasks, messages, rerun, traces) plus reference-only extensions.',
    },
  });

  if (options.upstream) {
    app.all('/v1/messaging/*', upstreamProxy(options.upstream, bodyLimit, options.fetchUpstream));
    // The example agents are not the deployed service's: they are not offered, whatever the key.
    const notOffered = agentsNotOffered(options.upstream);
    app.all('/reference/v1/agents', notOffered);
    app.all('/reference/v1/agents/*', notOffered);
  }

  app.use('/v1/*', requireApiKey(ring));
  // In upstream mode the user holds the deployed service's key, which this service cannot judge.
  app.use('/reference/*', requireApiKey(ring, { foreignKeys: Boolean(options.upstream) }));
  app.use('/v1/*', jsonBody(bodyLimit));
  app.use('/reference/*', jsonBody(bodyLimit));

  registerMessagingRoutes(app, service);
  registerReferenceRoutes(
    app,
    options.ports.agents,
    options.ports.bundles,
    new LineageService(options.store),
  );

  if (options.distDir) mountSpa(app, options.distDir);

  app.notFound((c) => {
    if (isApiPath(c.req.path)) {
      const error = routeNotFound(c.req.method, c.req.path);
      return c.json(error.body, 404);
    }
    return c.text('Not Found', 404);
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      // The rest of an oversized body is never read: the connection cannot carry another request.
      if (error.status === 413) c.header('connection', 'close');
      return c.json(error.body, error.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      const label = STATUS_LABELS[error.status] ?? 'Bad Request';
      return c.json(
        { error: label, message: error.message || 'The request could not be read' },
        error.status as ErrorStatus,
      );
    }
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        level: 'error',
        msg: 'unhandled error',
        method: c.req.method,
        path: c.req.path,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    const fault = internalError();
    return c.json(fault.body, fault.status);
  });

  return app;
}
