/**
 * `POST /reference/v1/lint` and `POST /reference/v1/diff` (reference only): what in a bundle is
 * dead, shadowed or contradictory, and what an edit changes, region by region, each proven by the
 * engine with a witness. Each route reads its request, asks the analysis service, answers.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  ANALYSIS_LIMITS,
  DiffRequest,
  DiffResponse,
  LintRequest,
  LintResponse,
} from '../../src/contract/analysis';
import { apiRouter } from '../http/api-router';
import type { AuthEnv } from '../http/auth';
import type { AnalysisService } from '../service/analysis-service';
import { RECORDED_DIFFERENCES } from '../service/recorded-turns';
import { API_KEY_SECURITY, errorAnswer } from './route-parts';

const LIMITS =
  `At most ${ANALYSIS_LIMITS.regionsPerTool} regions per tool and ${ANALYSIS_LIMITS.regions} in all are decided ` +
  `(past them \`capped\` is true and \`not_analysed\` says what was skipped), and at most ${ANALYSIS_LIMITS.items} ` +
  'items are answered.';

/**
 * A bundle as the routes read it: any object, which the service validates (a 422 naming the side,
 * with `issues`). The contract's recursive bundle schema would loop the OpenAPI generator.
 */
const SentBundle = z
  .record(z.string(), z.unknown())
  .describe('An agent settings bundle (see docs/bundle/README.md in the repository); validated first.');
const LintBody = LintRequest.extend({ agent_settings_bundle: SentBundle });
const SentSide = z.union([
  z.strictObject({ agent_settings_bundle: SentBundle }),
  z.strictObject({
    version_id: z.string().min(1).max(200).describe('A version of the agent `agent_id` names.'),
  }),
]);
const DiffBody = DiffRequest.extend({ base: SentSide, head: SentSide });

const BUSY = errorAnswer(
  'The service is busy or the analysis took too long; retry after `Retry-After` seconds.',
);
const BODY_ERRORS = {
  401: errorAnswer('Missing or invalid API key.'),
  413: errorAnswer('Request body over the size limit.'),
  415: errorAnswer('Request body is not JSON.'),
};

const lintRoute = createRoute({
  method: 'post',
  path: '/reference/v1/lint',
  tags: ['Reference'],
  summary: "A bundle's dead, always-holding, shadowed and conflicting rules, each with a witness",
  description:
    'Partitions, per tool, the values its rules read into the regions the conditions tell apart, decides each on ' +
    'the engine, and reports what the decisions show, each finding with its place in the bundle and a witness ' +
    `(the tool, values and clock at which the engine shows it). Day windows count from \`clock\` (now by default). ${LIMITS}`,
  security: API_KEY_SECURITY,
  request: { body: { required: true, content: { 'application/json': { schema: LintBody } } } },
  responses: {
    200: {
      description: 'The findings, what was left unanalysed and why, and how many regions were decided.',
      content: { 'application/json': { schema: LintResponse } },
    },
    ...BODY_ERRORS,
    422: errorAnswer(
      'Invalid request, a bundle that does not validate (`issues` lists its problems), or a bundle too complex to analyse (`bundle_too_complex`).',
    ),
    503: BUSY,
  },
});

const diffRoute = createRoute({
  method: 'post',
  path: '/reference/v1/diff',
  tags: ['Reference'],
  summary: 'What an edit changes: the regions two bundles of one agent decide differently',
  description:
    'Each side is a bundle (`agent_settings_bundle`) or a version of the agent `agent_id` names (`version_id`). ' +
    'Without `agent_id` both sides must be bundles, and two bundles naming different agents (`general_settings.id`, else its name) are refused. ' +
    '`equivalent` is true only when every region of every tool was decided alike. With `recorded_since` (and `agent_id`), each difference ' +
    "carries `recorded`: how many of the agent's stored turns since then considered its tool with values in its region, and the turn " +
    'search (the query string of `GET /reference/v1/turns`) that finds them; a region the search cannot say exactly (days before each ' +
    `turn's own clock, a value to avoid) gets no count and a \`not_analysed\` entry instead (counted for the first ${RECORDED_DIFFERENCES} differences). ${LIMITS}`,
  security: API_KEY_SECURITY,
  request: { body: { required: true, content: { 'application/json': { schema: DiffBody } } } },
  responses: {
    200: {
      description:
        'The differences, each with both outcomes and a witness, and each side’s bundle hash (and version).',
      content: { 'application/json': { schema: DiffResponse } },
    },
    ...BODY_ERRORS,
    403: errorAnswer('The key may not use the agent `agent_id` names.'),
    404: errorAnswer('The agent or a version a side names was not found.'),
    422: errorAnswer(
      'Invalid request, a side that does not validate (its path names it; `issues` lists the problems), a version side without `agent_id`, bundles of two agents, or a bundle too complex to analyse.',
    ),
    503: BUSY,
  },
});

export function analysisRoutes(analysis: AnalysisService): OpenAPIHono<AuthEnv> {
  const app = apiRouter();
  app.openapi(lintRoute, async (c) => c.json(await analysis.lint(c.get('apiKey'), c.req.valid('json')), 200));
  app.openapi(diffRoute, async (c) => c.json(await analysis.diff(c.get('apiKey'), c.req.valid('json')), 200));
  return app;
}
