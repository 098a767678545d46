/**
 * Find the conversations that matter: every turn the service keeps, filtered by rule and result,
 * tool, decision, intent, value, text, time, agent… (`find`, the URL's query string of filters),
 * newest first, with counts beside them. A result opens its thread at that turn; a count adds
 * its filter. Built on the reference service's turn search; where the service offers none, the
 * turns this browser has fetched are searched here, and the view says so.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { toApiError } from '../../api/errors';
import type { TurnFacetsIn, TurnHitIn } from '../../api/turn-search';
import { Button } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { inputClass } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { plural } from '../../lib/format';
import { KeyPrompt } from '../../components/connection/KeyPrompt';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { describeFilter, filtersOf, typedFilter, withFilter, withoutFilter, type FindFilter } from './find';
import { Hit, hitKey } from './Hit';
import { queryWords } from './reply-excerpt';
import { FetchedScopeNote } from './ScopeNote';
import { turnCountsQueryOptions, turnPagesQueryOptions } from './turn-queries';

export interface SearchViewProps {
  /** The search's query string of filters. */
  find: string;
  setFind: (find: string) => void;
  openTurn: (taskId: string, interactionId: string) => void;
  close: () => void;
  /** What can be done with the selected results (saving them as test cases), given by the app. */
  selectionActions?: (selected: readonly TurnHitIn[], clear: () => void) => ReactNode;
}

export function SearchView({ find, setFind, openTurn, close, selectionActions }: SearchViewProps) {
  const keyReady = useKeyReady();
  const filters = filtersOf(find);
  return (
    <div className="flex h-full min-h-0 flex-col">
      <KeyPrompt />
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
        <h2 className="text-sm font-semibold">Search turns</h2>
        <SearchBox onAdd={(f) => setFind(withFilter(find, f))} />
        <Button size="sm" variant="ghost" onClick={close}>
          Back to the thread
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-1.5 px-4 py-2" aria-label="Filters" role="list">
        {filters.length === 0 ? (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            No filter: every turn, newest first. Click a count, or type a filter above.
          </span>
        ) : (
          filters.map((f) => (
            <span
              key={`${f.field}=${f.value}`}
              role="listitem"
              className="inline-flex items-center gap-1 rounded-full border border-indigo-300 bg-indigo-50 px-2 py-0.5 text-xs text-indigo-900 dark:border-indigo-700 dark:bg-indigo-950 dark:text-indigo-100"
            >
              {describeFilter(f)}
              <button
                type="button"
                className="rounded-full px-1 hover:bg-indigo-200 dark:hover:bg-indigo-800"
                aria-label={`Remove filter ${describeFilter(f)}`}
                onClick={() => setFind(withoutFilter(find, f))}
              >
                ×
              </button>
            </span>
          ))
        )}
      </div>
      {keyReady ? (
        <div className="flex min-h-0 flex-1 gap-4 px-4 pb-4">
          <Results find={find} openTurn={openTurn} selectionActions={selectionActions} />
          <Facets find={find} add={(f) => setFind(withFilter(find, f))} />
        </div>
      ) : (
        <EmptyState title="Enter the API key to search">
          The turns this key may see are searched once the key is entered (Connection).
        </EmptyState>
      )}
    </div>
  );
}

/** Words or `field:value`, applied on Enter (never per keystroke). */
function SearchBox({ onAdd }: { onAdd: (f: FindFilter) => void }) {
  const [typed, setTyped] = useState('');
  const hint = useId();
  return (
    <form
      className="flex min-w-64 flex-1 items-center gap-2"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const filter = typedFilter(typed);
        if (filter) onAdd(filter);
        setTyped('');
      }}
    >
      <input
        aria-label="Search turns"
        aria-describedby={hint}
        className={inputClass('h-8 w-full text-sm')}
        placeholder="Words, or a filter: rule:DISPUTE_WINDOW:blocked, param:transaction-amount>500"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <span id={hint} className="sr-only">
        Press Enter to add. Filters: agent, rule, tool, decision, intent, param, version, bundle, task, user,
        from, to, each as field:value.
      </span>
      <Button size="sm" type="submit">
        Add
      </Button>
    </form>
  );
}

function Results({
  find,
  openTurn,
  selectionActions,
}: Pick<SearchViewProps, 'find' | 'openTurn' | 'selectionActions'>) {
  const query = useInfiniteQuery(turnPagesQueryOptions(find));
  const words = filtersOf(find).flatMap((f) => (f.field === 'q' ? queryWords(f.value) : []));
  // The selection belongs to one search: another search starts with none.
  const [selection, setSelection] = useState<{ find: string; picked: ReadonlyMap<string, TurnHitIn> }>({
    find,
    picked: new Map(),
  });
  const picked = selection.find === find ? selection.picked : new Map<string, TurnHitIn>();
  const toggle = (hit: TurnHitIn, on: boolean) => {
    const next = new Map(picked);
    if (on) next.set(hitKey(hit), hit);
    else next.delete(hitKey(hit));
    setSelection({ find, picked: next });
  };
  const clear = () => setSelection({ find, picked: new Map() });
  let body: ReactNode;
  if (query.isPending) body = <Spinner label="Searching…" />;
  else if (query.isError)
    body = (
      <ErrorCallout
        error={toApiError(query.error)}
        action={
          <Button size="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        }
      />
    );
  else {
    const hits = query.data.pages.flatMap((p) => p.items);
    const scope = query.data.pages[0]!.scope;
    body = (
      <>
        {scope.kind === 'browser' ? <FetchedScopeNote scope={scope} shown={hits.length} /> : null}
        {selectionActions && hits.length ? (
          <div className="mb-1 border-b border-zinc-200 pb-2 dark:border-zinc-800">
            {selectionActions([...picked.values()], clear)}
          </div>
        ) : null}
        {hits.length === 0 && !query.hasNextPage ? (
          <EmptyState title="No turn matches">Remove a filter to see more.</EmptyState>
        ) : (
          <ol
            className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800"
            aria-label="Matching turns"
          >
            {hits.map((h) => (
              <Hit
                key={hitKey(h)}
                hit={h}
                words={words}
                openTurn={openTurn}
                selected={selectionActions ? picked.has(hitKey(h)) : undefined}
                onSelect={(on) => toggle(h, on)}
              />
            ))}
          </ol>
        )}
        {query.hasNextPage ? (
          <Button
            size="sm"
            className="mt-2 self-start"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? 'Searching older turns…' : 'Older turns'}
          </Button>
        ) : null}
      </>
    );
  }
  return (
    <section className="flex min-w-0 flex-1 flex-col overflow-y-auto" aria-label="Results">
      {body}
    </section>
  );
}

function Facets({ find, add }: { find: string; add: (f: FindFilter) => void }) {
  const query = useQuery(turnCountsQueryOptions(find));
  const facets = query.data?.facets;
  if (!facets) return null;
  return (
    <aside className="flex w-72 shrink-0 flex-col gap-3 overflow-y-auto text-sm" aria-label="Counts">
      <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="facet-total">
        {facets.complete
          ? `${plural(facets.total, 'matching turn')}`
          : `Counts over the newest ${facets.total.toLocaleString('en')} matching turns`}
        {facets.since ? `, since ${facets.since.slice(0, 10)}` : ''}
      </p>
      <Days facets={facets} />
      <FacetList
        title="Decisions"
        rows={facets.decisions.map((d) => ({
          label: d.value,
          count: d.count,
          filter: { field: 'decision', value: d.value },
        }))}
        add={add}
      />
      <FacetList
        title="Rules"
        rows={facets.rules.map((r) => ({
          label: `${r.rule_id}: ${r.result.replaceAll('_', ' ')}`,
          count: r.count,
          filter: { field: 'rule', value: `${r.rule_id}:${r.result}` },
        }))}
        add={add}
      />
      <FacetList
        title="Tools invoked"
        rows={facets.tools
          .filter((t) => t.invoked > 0)
          .map((t) => ({
            label: t.tool,
            count: t.invoked,
            filter: { field: 'tool', value: `${t.tool}:invoked` },
          }))}
        add={add}
      />
      <FacetList
        title="Intents"
        rows={facets.intents.map((i) => ({
          label: i.value,
          count: i.count,
          filter: { field: 'intent', value: i.value },
        }))}
        add={add}
      />
    </aside>
  );
}

interface FacetRow {
  label: string;
  count: number;
  filter: FindFilter;
}

function FacetList({ title, rows, add }: { title: string; rows: FacetRow[]; add: (f: FindFilter) => void }) {
  if (rows.length === 0) return null;
  return (
    <section aria-label={title}>
      <h3 className="mb-1 text-xs font-semibold text-zinc-600 dark:text-zinc-400">{title}</h3>
      <ul className="flex flex-col">
        {rows.slice(0, 30).map((r) => (
          <li key={r.label}>
            <button
              type="button"
              className="flex w-full items-baseline justify-between gap-2 rounded px-1 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800"
              title={`Only turns with ${describeFilter(r.filter)}`}
              onClick={() => add(r.filter)}
            >
              <span className="min-w-0 truncate">{r.label}</span>
              <span className="tabular-nums text-zinc-500 dark:text-zinc-400">
                {r.count.toLocaleString('en')}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Matching turns per day, as bars (the newest days counted). */
function Days({ facets }: { facets: TurnFacetsIn }) {
  const days = facets.days.slice(-60);
  if (days.length < 2) return null;
  const max = Math.max(...days.map((d) => d.count));
  return (
    <figure aria-label="Matching turns per day">
      <div className="flex h-12 items-end gap-px" aria-hidden>
        {days.map((d) => (
          <span
            key={d.day}
            title={`${d.day}: ${d.count}`}
            className="flex-1 bg-indigo-400 dark:bg-indigo-600"
            style={{ height: `${Math.max(4, (d.count / max) * 100)}%` }}
          />
        ))}
      </div>
      <figcaption className="mt-1 flex justify-between text-xs text-zinc-500 dark:text-zinc-400">
        <span>{days[0]!.day}</span>
        <span>{days[days.length - 1]!.day}</span>
      </figcaption>
    </figure>
  );
}
