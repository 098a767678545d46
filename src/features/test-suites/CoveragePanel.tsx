/**
 * What the agent's last suite run did not test: rules never evaluated, never blocked, never
 * allowed; tools never invoked; decisions never reached. Shown in the Tests tab and beside the
 * bundle editor. Nothing is shown as "covered" without a finished run over a known bundle.
 */
import { useSuiteRunStore, selectRun } from './suite-run';

const MAX_SHOWN = 100;

function Items({ title, items, empty }: { title: string; items: readonly string[]; empty: string }) {
  const shown = items.slice(0, MAX_SHOWN);
  return (
    <div>
      <h4 className="font-medium">
        {title} <span className="text-zinc-500">({items.length})</span>
      </h4>
      {items.length === 0 ? (
        <p className="text-zinc-500">{empty}</p>
      ) : (
        <ul aria-label={title} className="flex flex-wrap gap-1">
          {shown.map((id) => (
            <li key={id} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono dark:bg-zinc-800">
              {id}
            </li>
          ))}
          {items.length > shown.length ? (
            <li className="text-zinc-500">and {items.length - shown.length} more</li>
          ) : null}
        </ul>
      )}
    </div>
  );
}

export function CoveragePanel({ agentId }: { agentId: string }) {
  const run = useSuiteRunStore(selectRun(agentId));
  return (
    <section aria-label="Suite coverage" className="flex flex-col gap-2 text-xs">
      <h3 className="text-sm font-semibold">Coverage</h3>
      {!run ? (
        <p className="text-zinc-500">
          Run the agent’s tests to see which rules, tools and decisions they do not reach.
        </p>
      ) : run.status === 'running' ? (
        <p className="text-zinc-500">The suite is running…</p>
      ) : !run.coverage ? (
        <p className="text-zinc-600 dark:text-zinc-400">{run.coverageNote ?? 'No coverage for this run.'}</p>
      ) : (
        <>
          <p className="text-zinc-600 dark:text-zinc-400">
            From the run against {run.target}
            {run.status === 'cancelled' ? ' (cancelled: only the cases that ran count)' : ''}:{' '}
            {run.coverage.rules.length} rules, {run.coverage.tools.length} tools in the bundle.
          </p>
          {run.coverageNote ? <p className="text-amber-800 dark:text-amber-300">{run.coverageNote}</p> : null}
          <Items
            title="Rules never evaluated"
            items={run.coverage.neverEvaluated}
            empty="Every rule was evaluated."
          />
          <Items
            title="Rules never blocked"
            items={run.coverage.neverBlocked}
            empty="Every rule blocked at least once."
          />
          <Items
            title="Rules never allowed"
            items={run.coverage.neverAllowed}
            empty="Every rule allowed at least once."
          />
          <Items
            title="Tools never invoked"
            items={run.coverage.toolsNeverInvoked}
            empty="Every tool was invoked."
          />
          <Items
            title="Decisions never reached"
            items={run.coverage.decisionsNeverReached}
            empty="Every decision was reached."
          />
        </>
      )}
    </section>
  );
}
