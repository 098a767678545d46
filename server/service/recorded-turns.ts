/**
 * `recorded` of a difference (`POST /reference/v1/diff` with `recorded_since`): how many stored
 * turns of the agent since then lie in the difference's region, counted by the turn index exactly
 * as the search the difference names finds them (`region-search.ts`). A region the search cannot
 * say exactly gets no count, and a `not_analysed` entry saying why.
 */
import type { DiffResult } from '../../src/contract/analysis';
import type { Store } from '../store/store';
import { parseTurnQuery, TurnQueryError } from '../store/turn-search';
import { nextLoopTurn } from './loop-turns';
import { regionSearch, searchText, type SearchValues } from './region-search';

/** Differences whose turns are counted (each count reads the agent's turns since the time asked). */
export const RECORDED_DIFFERENCES = 50;

/** The search's values as the reader of `GET /reference/v1/turns` takes them (each field to its values). */
function queryOf(values: SearchValues): Record<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const [field, value] of values) fields.set(field, [...(fields.get(field) ?? []), value]);
  return Object.fromEntries(fields);
}

/** Sets `recorded` on each difference whose region the search can say (in place), or says why not. */
export async function countRecordedTurns(
  store: Pick<Store, 'countMatchingTurns'>,
  agentId: string,
  since: string,
  result: DiffResult,
): Promise<void> {
  for (const [i, difference] of result.differences.entries()) {
    if (i >= RECORDED_DIFFERENCES) {
      result.not_analysed.push({
        reason: `recorded turns are counted for the first ${RECORDED_DIFFERENCES} differences only (${result.differences.length - RECORDED_DIFFERENCES} more)`,
      });
      return;
    }
    const search = regionSearch(agentId, difference.tool, since, difference.region);
    let reason = 'unsearchable' in search ? search.unsearchable : undefined;
    if (!('unsearchable' in search)) {
      try {
        const query = parseTurnQuery(queryOf(search.values));
        // One count per event-loop turn, with the other long answers: SQLite counts in this
        // thread, so the requests arriving meanwhile wait for one count, not for all of them.
        await nextLoopTurn();
        const count = await store.countMatchingTurns(query, [agentId]);
        difference.recorded = { count, search: searchText(search.values) };
        continue;
      } catch (e) {
        if (!(e instanceof TurnQueryError)) throw e;
        reason = e.message;
      }
    }
    result.not_analysed.push({
      tool: difference.tool,
      reason: `recorded turns not counted in region "${difference.region.words}": ${reason}`,
    });
  }
}
