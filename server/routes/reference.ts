/** Reference-only extensions: the example agents, their bundles, validation and the bundle schema. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { keyAllowsAgent } from '../auth/api-keys';
import type { AuthEnv } from '../http/auth';
import { ApiError, forbidden } from '../http/errors';
import type { AgentCatalog, AgentRecord, BundleTools } from '../service/ports';
import { agentBundleRoute, bundleSchemaRoute, listAgentsRoute, validateRoute } from './definitions';

const notFound = (message: string) => new ApiError(404, { error: 'Not Found', message });

function findVersion(agent: AgentRecord, version: string | undefined) {
  if (version === undefined) return agent.versions.find((v) => v.id === agent.active_version);
  return agent.versions.find((v) => v.id === version) ?? agent.versions.find((v) => v.tag === version);
}

export function registerReferenceRoutes(app: OpenAPIHono<AuthEnv>, agents: AgentCatalog, bundles: BundleTools): void {
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
    const { version } = c.req.valid('query');
    if (!keyAllowsAgent(c.get('apiKey'), agent_id)) throw forbidden(agent_id);
    const agent = agents.get(agent_id);
    if (!agent) throw notFound(`Agent not found: ${agent_id}`);
    const found = findVersion(agent, version);
    if (!found) throw notFound(`Version not found for agent ${agent_id}: ${version ?? agent.active_version}`);
    return c.json({ agent_id, version_id: found.id, version_tag: found.tag, bundle: found.bundle as Record<string, unknown> }, 200);
  });

  app.openapi(validateRoute, (c) => {
    const issues = bundles.validate(c.req.valid('json').agent_settings_bundle);
    return c.json({ valid: !issues.some((i) => i.severity === 'error'), issues }, 200);
  });

  app.openapi(bundleSchemaRoute, (c) => c.json(bundles.jsonSchema() as Record<string, unknown>, 200));
}
