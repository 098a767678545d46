/**
 * `POST /reference/v1/what-if` (reference only): a stored turn decided again by the reference
 * engine, in the worker pool (`answer.ts`), from the state it started from, with the bundle and clock it ran with and
 * some values changed (the understanding held fixed); on request, the smallest single changes
 * that give the turn another decision (why not). Nothing is stored: the answer is not a turn of
 * the conversation.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import type { Bundle } from '../../src/contract/bundle';
import { ErrorBody } from '../../src/contract/api';
import { WHAT_IF_REQUEST_LIMITS, WhatIfRequest, WhatIfResponse } from '../../src/contract/what-if';
import { keyAllowsAgent } from '../auth/api-keys';
import type { AuthEnv } from '../http/auth';
import { createBundleCache, type BundleCache } from '../service/bundle-cache';
import type { MessagingDependencies } from '../service/dependencies';
import { AccessDeniedError, InvalidInputError, NotFoundError } from '../service/errors';
import type { Store } from '../store/store';
import { overWorkBudget, workOf } from '../work/engine-work';

const API_KEY_SECURITY: Record<string, string[]>[] = [{ ServiceApiKey: [] }, { AuiApiKey: [] }];

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});

const whatIfRoute = createRoute({
  method: 'post',
  path: '/reference/v1/what-if',
  tags: ['Reference'],
  summary: 'A stored turn decided again with values changed, and what would change its decision',
  description:
    'Decides the turn again on the reference engine, from the state it started from, with the bundle and clock it ran ' +
    'with, holding its understanding fixed (tool, intent, values read) and applying `edits` as if the user had said ' +
    'them. With `why_not`, also lists the smallest single changes (a value, or the bundle) that give another ' +
    `decision, each verified. Nothing is stored. At most ${WHAT_IF_REQUEST_LIMITS.edits} edits.`,
  security: API_KEY_SECURITY,
  request: { body: { required: true, content: { 'application/json': { schema: WhatIfRequest } } } },
  responses: {
    200: {
      description:
        'The turn decided again, its differences from the stored turn, and the why-not list if asked.',
      content: { 'application/json': { schema: WhatIfResponse } },
    },
    401: error('Missing or invalid API key.'),
    403: error("The key may not use the task's agent."),
    404: error('Task or turn not found.'),
    413: error('Request body over the size limit.'),
    415: error('Request body is not JSON.'),
    422: error('Invalid request, an edit the bundle cannot take, or a bundle too complex to decide.'),
    503: error('The service is busy or the decision took too long; retry after `Retry-After` seconds.'),
  },
});

export function registerWhatIfRoute(
  app: OpenAPIHono<AuthEnv>,
  store: Store,
  dependencies: Pick<MessagingDependencies, 'agents' | 'work' | 'engine' | 'bundles'>,
): void {
  // Bundles sent with turns, parsed once by hash, so the engine reuses what it compiled for them.
  const kept = createBundleCache(8);
  const work = workOf(dependencies);
  app.openapi(whatIfRoute, async (c) => {
    const body = c.req.valid('json');
    const task = await store.getTask(body.task_id);
    if (!task) throw new NotFoundError(`Task not found: ${body.task_id}`);
    if (!keyAllowsAgent(c.get('apiKey'), task.agentId)) throw new AccessDeniedError(task.agentId);
    const [turn, fork] = await Promise.all([
      store.getTurn(body.task_id, body.interaction_id),
      store.forkPoint(body.task_id, body.interaction_id),
    ]);
    if (!turn || !fork)
      throw new NotFoundError(`Interaction not found in task ${body.task_id}: ${body.interaction_id}`);
    const bundle = await turnBundle(store, kept, dependencies, task.agentId, turn);
    let answer;
    try {
      // In the worker pool, as a send's turn: busy, too slow or crashed is a 503 with Retry-After.
      answer = await work.whatIf(bundle, {
        taskId: body.task_id,
        interactionId: body.interaction_id,
        bundleSource: { agent_id: task.agentId, version_id: turn.versionId, bundle_hash: turn.bundleHash },
        stateBefore: fork.stateBefore,
        clock: task.clock,
        userId: task.userId,
        recorded: { trace: turn.trace, reply: turn.reply.text },
        edits: body.edits,
        whyNot: body.why_not ?? false,
        includeEngineInput: body.include_engine_input ?? false,
      });
    } catch (e) {
      if (overWorkBudget(e)) throw InvalidInputError.at(['task_id'], e.message, 'bundle_too_complex');
      throw e;
    }
    if ('refused' in answer) throw InvalidInputError.at(answer.refused.path, answer.refused.message);
    return c.body(answer.json, 200, { 'content-type': 'application/json' }) as unknown as Response &
      TypedResponse<JSONParsed<WhatIfResponse>, 200, 'json'>;
  });
}

/** The bundle the turn ran with: the one sent with it (kept by hash), else its agent version's. */
async function turnBundle(
  store: Store,
  cache: BundleCache,
  dependencies: Pick<MessagingDependencies, 'agents'>,
  agentId: string,
  turn: { bundleHash: string | null; versionId: string },
): Promise<Bundle> {
  const hash = turn.bundleHash;
  if (hash) {
    const kept = (await store.getBundles(hash)).find((b) => b.agentId === agentId);
    if (!kept)
      throw InvalidInputError.at(
        ['interaction_id'],
        `The bundle this turn ran with is no longer kept: ${hash}`,
      );
    const checked = await cache.lookup(`${agentId}\u0000${hash}`, () =>
      Promise.resolve({ bundle: JSON.parse(kept.content) as Bundle, issues: [] }),
    );
    return checked.bundle;
  }
  const agent = dependencies.agents.get(agentId);
  const version = agent && dependencies.agents.resolve(agent, { version_id: turn.versionId });
  if (!version)
    throw InvalidInputError.at(
      ['interaction_id'],
      `The agent version this turn ran with is no longer available: ${turn.versionId}`,
    );
  return version.bundle;
}
