/** What a search over the turns this browser has fetched covers, said plainly. */
import { plural } from '../../lib/format';
import { MAX_THREADS, MAX_TURNS } from './fetched-turns';
import { MAX_FETCHED_RESULTS, type SearchScope } from './turn-queries';

/** Said plainly where the service offers no turn search: what was searched, and what was not. */
export function FetchedScopeNote({
  scope,
  shown = 0,
}: {
  scope: SearchScope & { kind: 'browser' };
  /** Results shown (the note says when they are cut). */
  shown?: number;
}) {
  return (
    <p
      role="note"
      className="mb-2 rounded border border-amber-300 bg-amber-50 px-2 py-1.5 text-xs text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      This service offers no turn search, so only the turns this browser has fetched are searched here (
      {plural(scope.turns, 'turn')} in {plural(scope.threads, 'thread')}). Threads not opened in this browser,
      and turns sent from elsewhere, are not included.
      {scope.capped
        ? ` Only the newest ${MAX_THREADS} threads and ${MAX_TURNS.toLocaleString('en')} turns are read.`
        : ''}
      {shown >= MAX_FETCHED_RESULTS ? ` The newest ${MAX_FETCHED_RESULTS} matches are shown.` : ''}
    </p>
  );
}
