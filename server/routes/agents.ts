/**
 * The agent endpoints (reference only): agents created through the API (create, read, draft,
 * publish, activate, delete) and the agent folders (their problems, a reload). Each route reads
 * its request, asks the agents service, answers; the declarations drive validation and the
 * OpenAPI document.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  ActivateRequest,
  AgentDetail,
  AgentProblemsResponse,
  CreateAgentRequest,
  DraftBody,
  DraftResponse,
  PublishRequest,
  ReloadResponse,
} from '../../src/contract/agents';
import { ErrorBody } from '../../src/contract/api';
import { apiRouter } from '../http/api-router';
import type { AuthEnv } from '../http/auth';
import type { AgentsService } from '../service/agents-service';

const security: Record<string, string[]>[] = [{ ServiceApiKey: [] }, { AuiApiKey: [] }];
const AgentPath = z.object({ agent_id: z.string().min(1).max(200) });
const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const body = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});
const ERRORS = {
  401: error('Missing or invalid API key.'),
  403: error('The key may not use this agent.'),
  422: error('Invalid request: `detail` lists each problem; an invalid bundle adds `issues`.'),
};
const NOT_EDITABLE =
  'The agent is an example or a folder agent (they change with their files), or the request conflicts with what is stored.';

const createAgentRoute = createRoute({
  method: 'post',
  path: '/reference/v1/agents',
  tags: ['Agents'],
  summary: 'Create an agent from a bundle',
  description:
    "Its first version (v1) is published and active, and the bundle is its draft. Its name comes from the bundle's general_settings.name, its welcome message and starters from the active version.",
  security,
  request: { body: body(CreateAgentRequest) },
  responses: {
    201: json(AgentDetail, 'The new agent.'),
    409: error('An agent with this id already exists.'),
    ...ERRORS,
  },
});

const getAgentRoute = createRoute({
  method: 'get',
  path: '/reference/v1/agents/{agent_id}',
  tags: ['Agents'],
  summary: 'An agent with its versions, welcome message and starter suggestions',
  security,
  request: { params: AgentPath },
  responses: { 200: json(AgentDetail, 'The agent.'), 404: error('No such agent.'), ...ERRORS },
});

const deleteAgentRoute = createRoute({
  method: 'delete',
  path: '/reference/v1/agents/{agent_id}',
  tags: ['Agents'],
  summary: 'Delete a created agent that no thread uses',
  security,
  request: { params: AgentPath },
  responses: {
    204: { description: 'Deleted.' },
    404: error('No such agent.'),
    409: error('The agent has threads (they keep it), or it is not a created agent.'),
    ...ERRORS,
  },
});

const getDraftRoute = createRoute({
  method: 'get',
  path: '/reference/v1/agents/{agent_id}/draft',
  tags: ['Agents'],
  summary: "A created agent's server-side draft",
  security,
  request: { params: AgentPath },
  responses: {
    200: json(DraftResponse, 'The draft.'),
    404: error('No such agent.'),
    409: error(NOT_EDITABLE),
    ...ERRORS,
  },
});

const putDraftRoute = createRoute({
  method: 'put',
  path: '/reference/v1/agents/{agent_id}/draft',
  tags: ['Agents'],
  summary: "Replace a created agent's draft (kept as sent; validated when published)",
  security,
  request: { params: AgentPath, body: body(DraftBody) },
  responses: {
    200: json(DraftResponse, 'The draft.'),
    404: error('No such agent.'),
    409: error(NOT_EDITABLE),
    ...ERRORS,
  },
});

const publishRoute = createRoute({
  method: 'post',
  path: '/reference/v1/agents/{agent_id}/versions',
  tags: ['Agents'],
  summary: 'Publish the draft (or the bundle sent) as a new, immutable version',
  description: 'The version id is v<n>; its tag defaults to the same. A tag already used is refused (409).',
  security,
  request: { params: AgentPath, body: body(PublishRequest) },
  responses: {
    200: json(AgentDetail, 'The agent with its new version.'),
    404: error('No such agent.'),
    409: error(NOT_EDITABLE),
    ...ERRORS,
  },
});

const activateRoute = createRoute({
  method: 'post',
  path: '/reference/v1/agents/{agent_id}/active',
  tags: ['Agents'],
  summary: 'Make one of the versions the active one (the one new threads run with)',
  security,
  request: { params: AgentPath, body: body(ActivateRequest) },
  responses: {
    200: json(AgentDetail, 'The agent.'),
    404: error('No such agent.'),
    409: error(NOT_EDITABLE),
    ...ERRORS,
  },
});

const reloadRoute = createRoute({
  method: 'post',
  path: '/reference/v1/agents/reload',
  tags: ['Agents'],
  summary: 'Read the agent folders (--agents) again',
  description:
    'Stored tasks and turns are kept; a thread whose version is gone answers 422 naming it. Needs a key for every agent.',
  security,
  responses: { 200: json(ReloadResponse, 'What was loaded and what was skipped.'), ...ERRORS },
});

const agentFoldersRoute = createRoute({
  method: 'get',
  path: '/reference/v1/agent-folders',
  tags: ['Agents'],
  summary: 'The projects of the agent folders that were skipped, and why',
  description: 'Needs a key for every agent.',
  security,
  responses: { 200: json(AgentProblemsResponse, 'The problems of the last (re)load.'), ...ERRORS },
});

export function agentRoutes(agents: AgentsService): OpenAPIHono<AuthEnv> {
  const app = apiRouter();
  app.openapi(reloadRoute, (c) => c.json(agents.reload(c.get('apiKey')), 200));
  app.openapi(agentFoldersRoute, (c) => c.json(agents.problems(c.get('apiKey')), 200));
  app.openapi(createAgentRoute, async (c) =>
    c.json(await agents.create(c.get('apiKey'), c.req.valid('json')), 201),
  );
  app.openapi(getAgentRoute, async (c) =>
    c.json(await agents.get(c.get('apiKey'), c.req.valid('param').agent_id), 200),
  );
  app.openapi(deleteAgentRoute, async (c) => {
    await agents.remove(c.get('apiKey'), c.req.valid('param').agent_id);
    return c.body(null, 204);
  });
  app.openapi(getDraftRoute, async (c) =>
    c.json(await agents.getDraft(c.get('apiKey'), c.req.valid('param').agent_id), 200),
  );
  app.openapi(putDraftRoute, async (c) =>
    c.json(
      await agents.putDraft(c.get('apiKey'), c.req.valid('param').agent_id, c.req.valid('json').bundle),
      200,
    ),
  );
  app.openapi(publishRoute, async (c) =>
    c.json(await agents.publish(c.get('apiKey'), c.req.valid('param').agent_id, c.req.valid('json')), 200),
  );
  app.openapi(activateRoute, async (c) =>
    c.json(
      await agents.activate(c.get('apiKey'), c.req.valid('param').agent_id, c.req.valid('json').version),
      200,
    ),
  );
  return app;
}
