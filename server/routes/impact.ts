/**
 * `POST /reference/v1/agents/{agent_id}/impact` (reference only): replays saved conversations with
 * the agent's version (the active one unless `version_id` names another) and with a draft bundle,
 * in the service's process with each case's clock, and answers the turns whose outcome differs
 * (`service/impact-service.ts`). The bundle editor's impact preview asks it after each settled
 * edit and aborts the request when a newer edit arrives; the replay stops at the next turn when
 * the client goes away.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { IMPACT_LIMITS, ImpactRequest, ImpactResponse } from '../../src/contract/impact';
import type { AuthEnv } from '../http/auth';
import type { ImpactService } from '../service/impact-service';
import { API_KEY_SECURITY, errorAnswer } from './route-parts';

const impactRoute = createRoute({
  method: 'post',
  path: '/reference/v1/agents/{agent_id}/impact',
  tags: ['Reference'],
  summary: 'Which saved conversations a draft bundle changes',
  description:
    `Replays each case's messages with the agent's version (the active one unless \`version_id\` is given) and with ` +
    "the draft bundle, on the engine with the case's clock, and answers the turns whose outcome (decision, " +
    'a rule result, the tools invoked) differs. The replay stops when the client disconnects. At most ' +
    `${IMPACT_LIMITS.cases} cases, ${IMPACT_LIMITS.messagesPerCase} messages per case and ${IMPACT_LIMITS.messages} ` +
    'messages in all; the body is bounded by the service body limit (2 MB by default).',
  security: API_KEY_SECURITY,
  request: {
    params: z.object({ agent_id: z.string().min(1).max(200) }),
    body: { required: true, content: { 'application/json': { schema: ImpactRequest } } },
  },
  responses: {
    200: {
      description: 'Per case: same, changed (with each changed turn) or error.',
      content: { 'application/json': { schema: ImpactResponse } },
    },
    401: errorAnswer('Missing or invalid API key.'),
    403: errorAnswer('The key may not use this agent.'),
    404: errorAnswer('Agent or version not found.'),
    413: errorAnswer('Request body over the size limit.'),
    415: errorAnswer('Request body is not JSON.'),
    422: errorAnswer(
      'Invalid request or draft bundle: `detail` lists each problem, `issues` the bundle problems.',
    ),
  },
});

export function registerImpactRoute(app: OpenAPIHono<AuthEnv>, impact: ImpactService): void {
  app.openapi(impactRoute, async (c) =>
    c.json(
      await impact.impact(
        c.get('apiKey'),
        c.req.valid('param').agent_id,
        c.req.valid('json'),
        c.req.raw.signal,
      ),
      200,
    ),
  );
}
