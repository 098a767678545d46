/**
 * A rule's page: its definition in the agent's bundle, how often it was evaluated and with which
 * results (counts, and a chart of each result per day), and the latest turns of each result,
 * which open in their thread at that turn. Every figure is the turn search's count for the rule
 * (`agent=…&rule=RULE` and `rule=RULE:result`), so it matches what the search shows.
 */
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useAgentBundle } from '../../api/agent-bundle';
import { toApiError } from '../../api/errors';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import { bundleRules } from '../../lib/bundle/rules-of';
import { plural } from '../../lib/format';
import { resultTone } from '../../lib/trace-tones';
import { KeyPrompt } from '../../components/connection/KeyPrompt';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { Hit, hitKey } from './Hit';
import { RuleChart } from './RuleChart';
import { dailySeries, ruleFind, ruleResults } from './rule-stats';
import { FetchedScopeNote } from './ScopeNote';
import { turnCountsQueryOptions, turnPagesQueryOptions } from './turn-queries';

/** Latest turns shown per result. */
const LATEST_PER_RESULT = 5;

export interface RulePageProps {
  agentId: string;
  ruleId: string;
  openTurn: (taskId: string, interactionId: string) => void;
  /** Opens the search with this query string. */
  openSearch: (find: string) => void;
  close: () => void;
}

export function RulePage({ agentId, ruleId, openTurn, openSearch, close }: RulePageProps) {
  const keyReady = useKeyReady();
  return (
    <div className="flex h-full min-h-0 flex-col">
      <KeyPrompt />
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
        <h2 className="text-sm font-semibold">
          Rule <span className="font-mono">{ruleId}</span>
          <span className="font-normal text-zinc-600 dark:text-zinc-400"> of {agentId}</span>
        </h2>
        <Button size="sm" variant="ghost" onClick={() => openSearch(ruleFind(agentId, ruleId))}>
          Search its turns
        </Button>
        <Button size="sm" variant="ghost" className="ml-auto" onClick={close}>
          Back to the thread
        </Button>
      </div>
      {keyReady ? (
        <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto p-4 lg:flex-row">
          <Definition agentId={agentId} ruleId={ruleId} />
          <Evaluations agentId={agentId} ruleId={ruleId} openTurn={openTurn} openSearch={openSearch} />
        </div>
      ) : (
        <p className="p-4 text-sm text-zinc-600 dark:text-zinc-400">
          Enter the API key (Connection) to read the rule and count its turns.
        </p>
      )}
    </div>
  );
}

function Definition({ agentId, ruleId }: { agentId: string; ruleId: string }) {
  const bundle = useAgentBundle(agentId);
  let body: ReactNode;
  if (bundle.isPending) body = <Spinner label="Reading the bundle…" />;
  else if (bundle.isError)
    body = (
      <p className="text-zinc-600 dark:text-zinc-400">
        {agentId}’s bundle is not available from this service ({toApiError(bundle.error).title}), so the
        rule’s definition cannot be shown here.
      </p>
    );
  else {
    const found = bundleRules(bundle.data.bundle).find((r) => r.id === ruleId);
    body = found ? (
      <>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          In <span className="font-mono">{found.place}</span>
          {bundle.data.version_id ? `, version ${bundle.data.version_id}` : ''}
        </p>
        {typeof found.rule.description === 'string' && found.rule.description ? (
          <p>{found.rule.description}</p>
        ) : null}
        <pre className="overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900">
          {JSON.stringify(found.rule, null, 2)}
        </pre>
      </>
    ) : (
      <p className="text-zinc-600 dark:text-zinc-400">
        {ruleId} is not in {agentId}’s active bundle
        {bundle.data.version_id ? ` (version ${bundle.data.version_id})` : ''}: it may come from another
        version or a bundle edited in this browser. Its turns are still counted.
      </p>
    );
  }
  return (
    <section aria-label="Definition" className="flex min-w-0 flex-col gap-2 text-sm lg:w-2/5">
      <h3 className="text-xs font-semibold text-zinc-600 dark:text-zinc-400">Definition</h3>
      {body}
    </section>
  );
}

function Evaluations({
  agentId,
  ruleId,
  openTurn,
  openSearch,
}: Pick<RulePageProps, 'agentId' | 'ruleId' | 'openTurn' | 'openSearch'>) {
  const counts = useQuery(turnCountsQueryOptions(ruleFind(agentId, ruleId)));
  const results = counts.data ? ruleResults(counts.data.facets.rules, ruleId) : [];
  const perResult = useQueries({
    queries: results.map((r) => turnCountsQueryOptions(ruleFind(agentId, ruleId, r.result))),
  });
  if (counts.isPending) return <Spinner label="Counting…" />;
  if (counts.isError)
    return (
      <ErrorCallout
        error={toApiError(counts.error)}
        action={
          <Button size="sm" onClick={() => void counts.refetch()}>
            Try again
          </Button>
        }
      />
    );
  const { facets, scope } = counts.data;
  const series = dailySeries(
    results.map((r, i) => ({ result: r.result, days: perResult[i]?.data?.facets.days ?? [] })),
  );
  return (
    <section aria-label="Evaluations" className="flex min-w-0 flex-1 flex-col gap-3 text-sm">
      {scope.kind === 'browser' ? <FetchedScopeNote scope={scope} /> : null}
      <h3 className="text-xs font-semibold text-zinc-600 dark:text-zinc-400" data-testid="rule-total">
        Evaluated in {plural(facets.total, 'turn')}
        {facets.complete ? '' : ' (the newest counted)'}
        {facets.since ? `, since ${facets.since.slice(0, 10)}` : ''}
      </h3>
      {results.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">No turn has evaluated this rule yet.</p>
      ) : (
        <>
          <ul aria-label="Results" className="flex flex-wrap gap-2">
            {results.map((r) => (
              <li key={r.result}>
                <button
                  type="button"
                  className="flex items-center gap-1.5 rounded px-1 hover:bg-zinc-100 dark:hover:bg-zinc-800"
                  title={`Search the turns where ${ruleId} was ${r.result.replaceAll('_', ' ')}`}
                  onClick={() => openSearch(ruleFind(agentId, ruleId, r.result))}
                >
                  <Badge tone={resultTone(r.result)}>{r.result.replaceAll('_', ' ')}</Badge>
                  <span className="tabular-nums">{r.count.toLocaleString('en')}</span>
                </button>
              </li>
            ))}
          </ul>
          <RuleChart series={series} ruleId={ruleId} />
          {results.map((r) => (
            <LatestTurns
              key={r.result}
              find={`${ruleFind(agentId, ruleId, r.result)}&limit=${LATEST_PER_RESULT}`}
              title={`Latest turns where ${ruleId} was ${r.result.replaceAll('_', ' ')}`}
              openTurn={openTurn}
            />
          ))}
        </>
      )}
    </section>
  );
}

function LatestTurns({
  find,
  title,
  openTurn,
}: {
  find: string;
  title: string;
  openTurn: RulePageProps['openTurn'];
}) {
  const query = useInfiniteQuery(turnPagesQueryOptions(find));
  const hits = query.data?.pages[0]?.items.slice(0, LATEST_PER_RESULT) ?? [];
  return (
    <section aria-label={title}>
      <h4 className="text-xs font-semibold text-zinc-600 dark:text-zinc-400">{title}</h4>
      {query.isPending ? (
        <Spinner label="Searching…" />
      ) : query.isError ? (
        <ErrorCallout error={toApiError(query.error)} />
      ) : (
        <ol aria-label={title} className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800">
          {hits.map((h) => (
            <Hit key={hitKey(h)} hit={h} openTurn={openTurn} />
          ))}
        </ol>
      )}
    </section>
  );
}
