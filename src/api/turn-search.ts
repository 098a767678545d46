/**
 * The reference service's turn search: `GET /reference/v1/turns` (a page of matching turns,
 * newest first, and the cursor of the next) and `GET /reference/v1/turns/facets` (counts over the
 * matching turns). `find` is the search's query string (`rule=DISPUTE_WINDOW:blocked&q=coffee`).
 * A server without them (a deployed service: 404/405) answers `null`. The queries (with the
 * search over this browser's turns where the service offers none) are the search feature's.
 */
import { z } from 'zod';
import { apiRequest } from './client';
import { isApiError } from './errors';

const text = z.string().catch('');
const count = z.number().catch(0);
const nullableText = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const TurnHitIn = z.looseObject({
  task_id: z.string(),
  interaction_id: z.string(),
  turn: z.number().int().catch(0),
  agent_id: text,
  version_id: text,
  bundle_hash: nullableText,
  user_id: text,
  created_at: text,
  intent: text,
  decision: text,
  deciding_rule: nullableText,
  message: text,
  reply: text,
});
export type TurnHitIn = z.infer<typeof TurnHitIn>;

const TurnSearchPageIn = z.looseObject({
  items: z.array(TurnHitIn),
  next_cursor: nullableText,
});
export type TurnSearchPageIn = z.infer<typeof TurnSearchPageIn>;

const Counted = z.looseObject({ value: text, count });
export const TurnFacetsIn = z.looseObject({
  total: count,
  complete: z.boolean().catch(false),
  since: nullableText,
  decisions: z.array(Counted).catch([]),
  intents: z.array(Counted).catch([]),
  rules: z.array(z.looseObject({ rule_id: text, result: text, count })).catch([]),
  tools: z.array(z.looseObject({ tool: text, considered: count, invoked: count })).catch([]),
  days: z.array(z.looseObject({ day: text, count })).catch([]),
});
export type TurnFacetsIn = z.infer<typeof TurnFacetsIn>;

/** Not offered by this server (a deployed service: 404/405): null. */
export async function orNull<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (e) {
    if (isApiError(e) && (e.status === 404 || e.status === 405)) return null;
    throw e;
  }
}

const withQuery = (path: string, find: string) => (find ? `${path}?${find}` : path);

/** A page of the turns matching `find`, after `cursor` (none: the newest); null when not offered. */
export function searchTurnsPage(
  find: string,
  cursor: string,
  signal?: AbortSignal,
): Promise<TurnSearchPageIn | null> {
  const params = new URLSearchParams(find);
  if (cursor) params.set('cursor', cursor);
  return orNull(
    apiRequest({
      path: withQuery('/reference/v1/turns', params.toString()),
      schema: TurnSearchPageIn,
      what: 'turn search',
      signal,
    }),
  );
}

/** Counts over the turns matching `find`; null when not offered. */
export function countTurns(find: string, signal?: AbortSignal): Promise<TurnFacetsIn | null> {
  return orNull(
    apiRequest({
      path: withQuery('/reference/v1/turns/facets', find),
      schema: TurnFacetsIn,
      what: 'turn counts',
      signal,
    }),
  );
}
