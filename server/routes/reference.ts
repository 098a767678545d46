/**
 * Reference-only extensions: the example agents, their bundles, validation, the bundle schema,
 * and the lineage and bundles the service keeps.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { keyAllowsAgent } from '../auth/api-keys';
import type { AuthEnv } from '../http/auth';
import { ApiError, forbidden } from '../http/errors';
import type { LineageService } from '../service/lineage-service';
import type { AgentCatalog, AgentRecord, BundleTools } from '../service/ports';
import {
  agentBundleRoute,
  bundleSchemaRoute,
  listAgentsRoute,
  storedBundleRoute,
  taskBranchesRoute,
  taskInfoRoute,
  validateRoute,
} from './definitions';

const notFound = (message: string) => new ApiError(404, { error: 'Not Found', message });

interface VersionQuery {
  version?: string | undefined;
  version_id?: string | undefined;
  version_tag?: string | undefined;
}

/** `version_id` by id, `version_tag` by tag, `version` by either; none → the active version. */
function findVersion(agent: AgentRecord, query: VersionQuery) {
  if (query.version_id !== undefined) return agent.versions.find((v) => v.id === query.version_id);
  if (query.version_tag !== undefined) return agent.versions.find((v) => v.tag === query.version_tag);
  const { version } = query;
  if (version === undefined) return agent.versions.find((v) => v.id === agent.active_version);
  return agent.versions.find((v) => v.id === version) ?? agent.versions.find((v) => v.tag === version);
}

export function registerReferenceRoutes(
  app: OpenAPIHono<AuthEnv>,
  agents: AgentCatalog,
  bundles: BundleTools,
  lineage: LineageService,
): void {
  app.openapi(taskInfoRoute, async (c) =>
    c.json(await lineage.taskInfo(c.get('apiKey'), c.req.valid('param').task_id), 200),
  );
  app.openapi(taskBranchesRoute, async (c) =>
    c.json(await lineage.branches(c.get('apiKey'), c.req.valid('param').task_id), 200),
  );
  app.openapi(storedBundleRoute, async (c) =>
    c.json(await lineage.bundle(c.get('apiKey'), c.req.valid('param').hash), 200),
  );

  app.openapi(listAgentsRoute, (c) => {
    const key = c.get('apiKey');
    const visible = agents.list().filter((a) => keyAllowsAgent(key, a.id));
    return c.json(
      {
        agents: visible.map((a) => ({
          id: a.id,
          name: a.name,
          description: a.description,
          active_version: a.active_version,
          versions: a.versions.map((v) => ({ id: v.id, tag: v.tag, description: v.description })),
        })),
      },
      200,
    );
  });

  app.openapi(agentBundleRoute, (c) => {
    const { agent_id } = c.req.valid('param');
    const query = c.req.valid('query');
    if (!keyAllowsAgent(c.get('apiKey'), agent_id)) throw forbidden(agent_id);
    const agent = agents.get(agent_id);
    if (!agent) throw notFound(`Agent not found: ${agent_id}`);
    const found = findVersion(agent, query);
    const asked = query.version_id ?? query.version_tag ?? query.version ?? agent.active_version;
    if (!found) throw notFound(`Version not found for agent ${agent_id}: ${asked}`);
    return c.json(
      {
        agent_id,
        version_id: found.id,
        version_tag: found.tag,
        bundle: found.bundle,
      },
      200,
    );
  });

  app.openapi(validateRoute, (c) => {
    const issues = bundles.validate(c.req.valid('json').agent_settings_bundle);
    return c.json({ valid: !issues.some((i) => i.severity === 'error'), issues }, 200);
  });

  app.openapi(bundleSchemaRoute, (c) => c.json(bundles.jsonSchema() as Record<string, unknown>, 200));
}
