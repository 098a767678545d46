/**
 * Builds the HTTP app: the Messaging API v1, the reference extensions, the OpenAPI document, the
 * built web app, and the cross-cutting layers (request log, security headers, CORS, auth, body
 * limits, error bodies). Testable without a socket: `app.fetch(request)`.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiKey } from './auth/api-keys';
import { createKeyRing, parseApiKeys } from './auth/api-keys';
import { apiRouter } from './http/api-router';
import { requireApiKey, type AuthEnv } from './http/auth';
import { errorAnswers } from './http/error-answers';
import { routeNotFound } from './http/errors';
import { jsonBody } from './http/json-body';
import { storableUrl } from './http/storable-text';
import { apiCors, hostGuard, type OriginPolicy } from './http/origins';
import { requestLog, stdoutSink, type LogSink } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { mountSpa } from './http/spa';
import { agentsNotOffered, upstreamProxy, type UpstreamOptions } from './http/upstream';
import { registerImpactRoute } from './routes/impact';
import { registerWhatIfRoute } from './routes/what-if';
import { healthRoutes } from './routes/health';
import { onDamagedValue } from './store/damaged-values';
import { messagingRoutes } from './routes/messaging';
import { referenceRoutes } from './routes/reference';
import { agentRoutes } from './routes/agents';
import { analysisRoutes } from './routes/analysis';
import { AnalysisService } from './service/analysis-service';
import { ImpactService } from './service/impact-service';
import { WhatIfService } from './service/what-if-service';
import { LiveAgentCatalog } from './agents/live-catalog';
import { AgentsService } from './service/agents-service';
import { LineageService } from './service/lineage-service';
import { MessagingService } from './service/messaging-service';
import { ReferenceService } from './service/reference-service';
import { TaskListService } from './service/task-list-service';
import { TurnSearchService } from './service/turn-search-service';
import type { MessagingDependencies } from './service/dependencies';
import { workOf } from './work/engine-work';
import { createKeyedSerializer } from './service/task-serializer';
import type { Store } from './store/store';

const DEFAULT_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface AppOptions {
  store: Store;
  /** The engine, example agents, bundle tools, clock and ids the service runs with. */
  dependencies: MessagingDependencies;
  /** Folders of agent projects to load besides the example agents (`--agents`). */
  agentDirs?: readonly string[];
  /** Default: one `dev-key` for every agent. */
  apiKeys?: ApiKey[];
  /** The built web app to serve; none when omitted. */
  distDir?: string;
  /** Forward `/v1/messaging/*` to this deployed service instead of answering locally. */
  upstream?: UpstreamOptions;
  bodyLimitBytes?: number;
  log?: LogSink;
  fetchUpstream?: typeof fetch;
  /** Which `Host` names and page origins are answered (default: this machine and its own origin). */
  origins?: OriginPolicy;
}

const isApiPath = (path: string) =>
  path.startsWith('/v1/') ||
  path.startsWith('/reference/') ||
  path === '/openapi.json' ||
  path === '/healthz';

export function createApp(options: AppOptions): OpenAPIHono<AuthEnv> {
  const log = options.log ?? stdoutSink;
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const ring = createKeyRing(options.apiKeys ?? parseApiKeys(undefined));
  // Every agent: the examples (or the catalog given), the folders' and the created ones.
  const catalog =
    options.dependencies.agents instanceof LiveAgentCatalog
      ? options.dependencies.agents
      : new LiveAgentCatalog(options.dependencies.agents, options.agentDirs ?? [], options.store);
  const dependencies = { ...options.dependencies, agents: catalog };
  const messaging = new MessagingService(options.store, dependencies, createKeyedSerializer());
  const reference = new ReferenceService(catalog, dependencies.bundles, workOf(dependencies));
  const agents = new AgentsService(options.store, catalog, dependencies);
  const lineage = new LineageService(options.store);

  const app = apiRouter();
  onDamagedValue((what) =>
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        level: 'error',
        msg: 'stored value damaged',
        what,
      }),
    ),
  );

  app.use('*', requestLog(log));
  app.use('*', securityHeaders());
  app.use('*', hostGuard(options.origins ?? {}));
  for (const path of ['/v1/*', '/reference/*', '/openapi.json'])
    app.use(path, apiCors(options.origins ?? {}));

  app.route('/', healthRoutes(options.store));
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
    app.all('/v1/messaging/*', upstreamProxy(options.upstream, bodyLimit, log, options.fetchUpstream, ring));
    // The example agents are not the deployed service's: they are not offered, whatever the key.
    const notOffered = agentsNotOffered(options.upstream.url);
    app.all('/reference/v1/agents', notOffered);
    app.all('/reference/v1/agents/*', notOffered);
  }

  app.use('/v1/*', requireApiKey(ring));
  // In upstream mode the user holds the deployed service's key, which this service cannot judge.
  app.use('/reference/*', requireApiKey(ring, { foreignKeys: Boolean(options.upstream) }));
  app.use('/v1/*', storableUrl(), jsonBody(bodyLimit));
  app.use('/reference/*', storableUrl(), jsonBody(bodyLimit));

  // The created agents as the store has them now (another instance may have changed them).
  for (const path of ['/v1/*', '/reference/*'])
    app.use(path, async (_c, next) => {
      await catalog.sync();
      await next();
    });

  app.route('/', messagingRoutes(messaging));
  app.route('/', agentRoutes(agents));
  app.route(
    '/',
    referenceRoutes(
      reference,
      lineage,
      new TurnSearchService(options.store),
      new TaskListService(options.store),
    ),
  );
  app.route(
    '/',
    analysisRoutes(new AnalysisService(options.store, { ...dependencies, work: workOf(dependencies) })),
  );
  registerImpactRoute(app, new ImpactService(dependencies));
  registerWhatIfRoute(app, new WhatIfService(options.store, dependencies));

  if (options.distDir) mountSpa(app, options.distDir);

  app.notFound((c) => {
    if (isApiPath(c.req.path)) {
      const error = routeNotFound(c.req.method, c.req.path);
      return c.json(error.body, 404);
    }
    return c.text('Not Found', 404);
  });

  app.onError(errorAnswers(log));

  return app;
}
