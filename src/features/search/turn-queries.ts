/**
 * The queries of a search: its matching turns (pages, newest first) and its counts, from the
 * service's turn search; where the service offers none (a deployed service), from the turns this
 * browser has fetched, searched here with the same filters (`scope` says which). Both the results
 * and the counts of a search over fetched turns come from one pass over them.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../api/errors';
import { apiKeys } from '../../api/keys';
import { countTurns, searchTurnsPage, type TurnFacetsIn, type TurnHitIn } from '../../api/turn-search';
import { fetchedFacets, matchesFetched, newestFirst, readFetchedQuery } from './fetched-search';
import { readFetchedTurns } from './fetched-turns';

/** What a search covered: every turn the service keeps, or the turns this browser has fetched. */
export type SearchScope =
  { kind: 'service' } | { kind: 'browser'; threads: number; turns: number; capped: boolean };

export interface TurnPage {
  items: TurnHitIn[];
  next_cursor: string | null;
  scope: SearchScope;
}

export interface TurnCounts {
  facets: TurnFacetsIn;
  scope: SearchScope;
}

/** Results shown at most from the turns this browser fetched. */
export const MAX_FETCHED_RESULTS = 200;
const SERVICE: SearchScope = { kind: 'service' };

/** A search's query string without its page size (the same search, whatever the size). */
function withoutLimit(find: string): { find: string; limit: number } {
  const params = new URLSearchParams(find);
  const limit = Number(params.get('limit'));
  params.delete('limit');
  return {
    find: params.toString(),
    limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_FETCHED_RESULTS) : MAX_FETCHED_RESULTS,
  };
}

const fetchedSearchOptions = (find: string) =>
  queryOptions({
    queryKey: [...apiKeys.turnSearch(find), 'fetched'],
    queryFn: async ({ client }) => {
      let query;
      try {
        query = readFetchedQuery(find);
      } catch (e) {
        // A search that cannot be read is the request's fault, as the service's 400 would be:
        // said at once, never retried.
        throw new ApiError({
          kind: 'http',
          status: 400,
          title: 'This search cannot be read',
          message: e instanceof Error ? e.message : String(e),
          guidance: 'Remove the filter named, or write it as the search box’s hint shows.',
        });
      }
      const fetched = await readFetchedTurns(client);
      const matched = fetched.turns.filter((t) => matchesFetched(query, t)).sort(newestFirst);
      const scope: SearchScope = {
        kind: 'browser',
        threads: fetched.threads,
        turns: fetched.turns.length,
        capped: fetched.capped,
      };
      return { hits: matched.map((t) => t.hit), facets: fetchedFacets(matched), scope };
    },
    staleTime: 5_000,
  });

export const turnPagesQueryOptions = (find: string) =>
  infiniteQueryOptions({
    queryKey: apiKeys.turnSearch(find),
    initialPageParam: '',
    queryFn: async ({ client, pageParam, signal }): Promise<TurnPage> => {
      const page = await searchTurnsPage(find, pageParam, signal);
      if (page) return { ...page, scope: SERVICE };
      const { find: search, limit } = withoutLimit(find);
      const fetched = await client.fetchQuery(fetchedSearchOptions(search));
      return { items: fetched.hits.slice(0, limit), next_cursor: null, scope: fetched.scope };
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: 10_000,
  });

export const turnCountsQueryOptions = (find: string) =>
  queryOptions({
    queryKey: apiKeys.turnFacets(find),
    queryFn: async ({ client, signal }): Promise<TurnCounts> => {
      const facets = await countTurns(find, signal);
      if (facets) return { facets, scope: SERVICE };
      const fetched = await client.fetchQuery(fetchedSearchOptions(find));
      return { facets: fetched.facets, scope: fetched.scope };
    },
    staleTime: 10_000,
  });
