/**
 * `POST /reference/v1/agents/{agent_id}/impact` (reference only): replays saved conversations with
 * the agent's version (the active one unless `version_id` names another) and with a draft bundle,
 * in the service's process with each case's clock, and answers the turns whose outcome differs.
 * The bundle editor's impact preview asks it after each settled edit and aborts the request when a
 * newer edit arrives; the replay stops at the next turn when the client goes away.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { ErrorBody } from '../../src/contract/api';
import { IMPACT_LIMITS, ImpactRequest, ImpactResponse } from '../../src/contract/impact';
import { keyAllowsAgent } from '../auth/api-keys';
import type { AuthEnv } from '../http/auth';
import { ApiError, forbidden } from '../http/errors';
import { InvalidInputError } from '../service/errors';
import { createBundleCache } from '../service/bundle-cache';
import type { MessagingDependencies } from '../service/dependencies';
import { interactiveWorkers } from '../work/engine-pool';
import { workOf } from '../work/engine-work';
import { createRunCache, replayImpact } from '../service/impact-replay';

const API_KEY_SECURITY: Record<string, string[]>[] = [{ ServiceApiKey: [] }, { AuiApiKey: [] }];

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});

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
    401: error('Missing or invalid API key.'),
    403: error('The key may not use this agent.'),
    404: error('Agent or version not found.'),
    413: error('Request body over the size limit.'),
    415: error('Request body is not JSON.'),
    422: error('Invalid request or draft bundle: `detail` lists each problem, `issues` the bundle problems.'),
  },
});

const notFound = (message: string) => new ApiError(404, { error: 'Not Found', message });

export function registerImpactRoute(
  app: OpenAPIHono<AuthEnv>,
  dependencies: Pick<MessagingDependencies, 'agents' | 'bundles' | 'engine' | 'work'>,
): void {
  const work = workOf(dependencies);
  const drafts = createBundleCache(8);
  const baselineRuns = createRunCache();
  const versionHashes = new WeakMap<object, string>();

  app.openapi(impactRoute, async (c) => {
    const { agent_id } = c.req.valid('param');
    const body = c.req.valid('json');
    if (!keyAllowsAgent(c.get('apiKey'), agent_id)) throw forbidden(agent_id);
    const agent = dependencies.agents.get(agent_id);
    if (!agent) throw notFound(`Agent not found: ${agent_id}`);
    const version = dependencies.agents.resolve(agent, { version_id: body.version_id });
    if (!version)
      throw notFound(`Version not found for agent ${agent_id}: ${body.version_id ?? agent.active_version}`);

    const draftHash = dependencies.bundles.hash(body.agent_settings_bundle);
    const draft = await drafts.lookup(draftHash, async () => ({
      bundle: body.agent_settings_bundle,
      issues: await work.validate(body.agent_settings_bundle),
    }));
    if (draft.issues.some((i) => i.severity === 'error'))
      throw InvalidInputError.bundle(draft.issues, ['agent_settings_bundle']);
    let baselineHash = versionHashes.get(version.bundle);
    if (baselineHash === undefined)
      versionHashes.set(version.bundle, (baselineHash = dependencies.bundles.hash(version.bundle)));

    const cases = await replayImpact({
      work,
      baseline: { bundle: version.bundle, key: `${agent_id}\u0000${version.id}\u0000${baselineHash}` },
      draft: draft.bundle,
      cases: body.cases,
      signal: c.req.raw.signal,
      cache: baselineRuns,
      batchesAtOnce: interactiveWorkers(),
    });
    return c.json(
      {
        agent_id,
        baseline: { version_id: version.id, version_tag: version.tag, bundle_hash: baselineHash },
        draft: { bundle_hash: draftHash },
        total: cases.length,
        changed: cases.filter((r) => r.status === 'changed').length,
        errors: cases.filter((r) => r.status === 'error').length,
        cases,
      },
      200,
    );
  });
}
