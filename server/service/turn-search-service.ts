/**
 * Searching every stored turn (`GET /reference/v1/turns`, `/reference/v1/turns/facets`): reads
 * the filters, keeps the search to the agents the key may use (403 when it names another), pages
 * newest first with an opaque cursor, and asks the store's turn index.
 */
import type { TurnFacets, TurnHit, TurnSearchPage } from '../../src/contract/api';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import type { Store } from '../store/store';
import {
  parseTurnQuery,
  TurnQueryError,
  type TurnHit as IndexHit,
  type TurnQuery,
} from '../store/turn-search';
import { AccessDeniedError, InvalidInputError } from './errors';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

/** A request's query: each parameter with every value it was given. */
export type QueryValues = Record<string, string[]>;

const hitOf = (h: IndexHit): TurnHit => ({
  task_id: h.taskId,
  interaction_id: h.interactionId,
  turn: h.seq,
  agent_id: h.agentId,
  version_id: h.versionId,
  bundle_hash: h.bundleHash,
  user_id: h.userId,
  created_at: h.createdAt,
  intent: h.intent,
  decision: h.decision,
  deciding_rule: h.decidingRule,
  message: h.message,
  reply: h.reply,
});

/** The cursor after a page: the last turn's order key, opaque to clients. */
const cursorAfter = (id: number): string => Buffer.from(`t1:${id}`).toString('base64url');

function readCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  const id = text.startsWith('t1:') ? Number(text.slice(3)) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 0)
    throw InvalidInputError.at(
      ['query', 'cursor'],
      'cursor: not one this service gave; start again without it',
    );
  return id;
}

function single(values: QueryValues, name: string): string | undefined {
  const v = values[name];
  if (v && v.length > 1) throw InvalidInputError.at(['query', name], `${name}: give it once`);
  return v?.[0];
}

export class TurnSearchService {
  constructor(private readonly store: Store) {}

  async search(key: ApiKey, values: QueryValues): Promise<TurnSearchPage> {
    const query = this.query(key, values);
    const limitText = single(values, 'limit');
    const limit = limitText === undefined ? DEFAULT_PAGE : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
      throw InvalidInputError.at(['query', 'limit'], `limit: a whole number from 1 to ${MAX_PAGE}`);
    const cursor = single(values, 'cursor');
    const before = cursor === undefined ? null : readCursor(cursor);
    const { hits, next } = await this.store.searchTurns(query, allowed(key), before, limit);
    return { items: hits.map(hitOf), next_cursor: next === null ? null : cursorAfter(next) };
  }

  async facets(key: ApiKey, values: QueryValues): Promise<TurnFacets> {
    return this.store.turnFacets(this.query(key, values), allowed(key));
  }

  private query(key: ApiKey, values: QueryValues): TurnQuery {
    let query: TurnQuery;
    try {
      query = parseTurnQuery(values);
    } catch (error) {
      if (error instanceof TurnQueryError) throw InvalidInputError.at(['query', error.field], error.message);
      throw error;
    }
    const refused = query.agents.find((a) => !keyAllowsAgent(key, a));
    if (refused !== undefined) throw new AccessDeniedError(refused);
    return query;
  }
}

const allowed = (key: ApiKey): readonly string[] | null => (key.agents === '*' ? null : key.agents);
