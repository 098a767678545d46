/**
 * Reference-only extensions (mounted with `app.route()`): the example agents, their bundles,
 * validation, the bundle schema, and the lineage and bundles the service keeps. Each route reads
 * its request, asks the service, answers.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { apiRouter } from '../http/api-router';
import type { AuthEnv } from '../http/auth';
import type { LineageService } from '../service/lineage-service';
import type { ReferenceService } from '../service/reference-service';
import type { TaskListService } from '../service/task-list-service';
import type { TurnSearchService } from '../service/turn-search-service';
import {
  agentBundleRoute,
  bundleSchemaRoute,
  listAgentsRoute,
  listTasksRoute,
  storedBundleRoute,
  taskBranchesRoute,
  renameTaskRoute,
  searchTurnsRoute,
  taskInfoRoute,
  turnRunsRoute,
  turnFacetsRoute,
  validateRoute,
} from './definitions';

export function referenceRoutes(
  reference: ReferenceService,
  lineage: LineageService,
  search: TurnSearchService,
  tasks: TaskListService,
): OpenAPIHono<AuthEnv> {
  const app = apiRouter();
  app.openapi(listTasksRoute, async (c) => c.json(await tasks.list(c.get('apiKey'), c.req.queries()), 200));
  // The filters are read from every value each parameter was given (`rule=A&rule=B`).
  app.openapi(searchTurnsRoute, async (c) =>
    c.json(await search.search(c.get('apiKey'), c.req.queries()), 200),
  );
  app.openapi(turnFacetsRoute, async (c) =>
    c.json(await search.facets(c.get('apiKey'), c.req.queries()), 200),
  );
  app.openapi(taskInfoRoute, async (c) =>
    c.json(await lineage.taskInfo(c.get('apiKey'), c.req.valid('param').task_id), 200),
  );
  app.openapi(turnRunsRoute, async (c) =>
    c.json(await lineage.turnRuns(c.get('apiKey'), c.req.valid('param').task_id, c.req.valid('query')), 200),
  );
  app.openapi(renameTaskRoute, async (c) =>
    c.json(
      await lineage.rename(c.get('apiKey'), c.req.valid('param').task_id, c.req.valid('json').title),
      200,
    ),
  );
  app.openapi(taskBranchesRoute, async (c) =>
    c.json(await lineage.branches(c.get('apiKey'), c.req.valid('param').task_id), 200),
  );
  app.openapi(storedBundleRoute, async (c) =>
    c.json(await lineage.bundle(c.get('apiKey'), c.req.valid('param').hash), 200),
  );
  app.openapi(listAgentsRoute, (c) => c.json(reference.listAgents(c.get('apiKey')), 200));
  app.openapi(agentBundleRoute, (c) =>
    c.json(reference.agentBundle(c.get('apiKey'), c.req.valid('param').agent_id, c.req.valid('query')), 200),
  );
  app.openapi(validateRoute, async (c) =>
    c.json(await reference.validate(c.get('apiKey'), c.req.valid('json').agent_settings_bundle), 200),
  );
  app.openapi(bundleSchemaRoute, (c) => c.json(reference.bundleSchema(), 200));
  return app;
}
