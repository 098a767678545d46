/**
 * `POST /reference/v1/what-if` (reference only): a stored turn decided again by the reference
 * engine, from the state it started from, with the bundle and clock it ran with and some values
 * changed; on request, what would change its decision (why not). The work is the what-if
 * service's (`service/what-if-service.ts`); nothing is stored.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import { WHAT_IF_REQUEST_LIMITS, WhatIfRequest, WhatIfResponse } from '../../src/contract/what-if';
import type { AuthEnv } from '../http/auth';
import type { WhatIfService } from '../service/what-if-service';
import { API_KEY_SECURITY, errorAnswer as error } from './route-parts';

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

export function registerWhatIfRoute(app: OpenAPIHono<AuthEnv>, whatIf: WhatIfService): void {
  app.openapi(whatIfRoute, async (c) => {
    const json = await whatIf.answer(c.get('apiKey'), c.req.valid('json'));
    // The answer is JSON text made in the worker: sent as it is.
    return c.body(json, 200, { 'content-type': 'application/json' }) as unknown as Response &
      TypedResponse<JSONParsed<WhatIfResponse>, 200, 'json'>;
  });
}
