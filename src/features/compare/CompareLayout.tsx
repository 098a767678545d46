/**
 * Two threads side by side, from the turns it is given: alignTurns (shared prefix collapsed, then
 * aligned rows) → diffTraces per aligned pair → the decision diff leads each row; "Only
 * differences" hides equal rows; the graphs of one row are drawn stacked with highlightFor marking
 * changed nodes. No queries here: the live view (`CompareView.tsx`) feeds it from the service, a
 * shared document from the file; each passes what it knows of the bundles used.
 */
import { Suspense, useContext, useMemo, useState, type ReactNode } from 'react';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { cx, plural, shortId } from '../../lib/format';
import { DecisionBadge } from '../../components/DecisionBadge';
import { bundleLabel } from '../../domain/threads/run-config';
import { alignTurns, type AlignedRow } from './align';
import { DecisionDiffView } from './DecisionDiffView';
import { CompareGraphSlot } from './graph-slot';
import { formatComparePair, type ComparePair } from './pair';
import { countDifferences, diffTraces, highlightFor, type TraceDiff } from './trace-diff';
import type { SideTurn } from './turns';

export interface CompareSide {
  title: string;
  agentId: string | undefined;
  turns: SideTurn[];
}

export interface CompareLayoutProps {
  pair: ComparePair;
  a: CompareSide;
  b: CompareSide;
  /** Shown instead of the rows while the two threads are not both known (nothing is concluded). */
  notReady?: ReactNode;
  /** Under the header (e.g. what the bundle changes, in words). */
  headerExtra?: ReactNode;
  /** Above the rows: which turns are compared, when not both threads whole. */
  coverage?: ReactNode;
  /** After the rows: the bundles each side ran with. */
  bundles?: ReactNode;
  onlyDifferences: boolean;
  onOnlyDifferences: (on: boolean) => void;
  onPairChange: (pair: string | undefined) => void;
  onOpenTask: (taskId: string) => void;
}

type Row = AlignedRow<SideTurn> & { key: string; diff: TraceDiff | null };

function TurnText({
  turn,
  label,
  agentId,
}: {
  turn: SideTurn | undefined;
  label: string;
  agentId: string | undefined;
}) {
  if (!turn) return <p className="flex-1 text-xs text-zinc-500 italic">No turn here in {label}.</p>;
  return (
    <div className="min-w-0 flex-1 rounded border border-zinc-200 p-2 text-xs dark:border-zinc-700">
      <p className="text-zinc-500">
        {label} · turn {turn.index + 1} <DecisionBadge decision={turn.trace?.decision} />
      </p>
      <p className="text-zinc-500" data-testid="turn-ran-with">
        ran with {bundleLabel(turn.bundleHash)}
        {agentId ? ` of ${agentId}` : ''}
        {turn.versionId ? ` · version ${turn.versionId}` : ''}
      </p>
      <p className="mt-1 font-medium break-words">{turn.user_text || <em>(text not recorded)</em>}</p>
      <p className="mt-1 break-words text-zinc-600 dark:text-zinc-400">{turn.reply_text}</p>
    </div>
  );
}

function Graphs({ row, diff }: { row: Extract<Row, { kind: 'pair' }>; diff: TraceDiff }) {
  const renderGraph = useContext(CompareGraphSlot);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const ha = useMemo(() => highlightFor(diff, 'a'), [diff]);
  const hb = useMemo(() => highlightFor(diff, 'b'), [diff]);
  return (
    // Stacked, each the width of the view: the path and what changed fit at a legible size.
    <div className="flex flex-col gap-2">
      {(
        [
          [row.a, ha, 'A'],
          [row.b, hb, 'B'],
        ] as const
      ).map(([turn, highlight, side]) => (
        <div
          key={side}
          className="h-[30rem] overflow-hidden rounded border border-zinc-200 dark:border-zinc-700"
        >
          {turn.trace && renderGraph ? (
            <Suspense
              fallback={
                <div className="flex h-full items-center justify-center gap-2 text-xs text-zinc-500">
                  <Spinner label="Loading the graph" /> Loading the graph…
                </div>
              }
            >
              {renderGraph({
                trace: turn.trace,
                selectedNodeId: selected,
                onSelectNode: setSelected,
                highlight,
                label: `Trace graph ${side}, turn ${turn.index + 1}`,
              })}
            </Suspense>
          ) : (
            <p className="p-3 text-xs text-zinc-500">No trace for this turn.</p>
          )}
        </div>
      ))}
    </div>
  );
}

function RowView({
  row,
  index,
  graphsOpen,
  onToggleGraphs,
  agents,
}: {
  row: Row;
  index: number;
  graphsOpen: boolean;
  onToggleGraphs: () => void;
  agents: [string | undefined, string | undefined];
}) {
  const diff = row.diff;
  const n = diff ? countDifferences(diff) : 0;
  return (
    <article
      aria-label={`Aligned turn ${index + 1}`}
      className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <header className="flex flex-wrap items-center gap-2 text-sm">
        <h3 className="font-semibold">
          {row.kind === 'pair'
            ? `Turn ${row.a.index + 1} ↔ ${row.b.index + 1}`
            : row.kind === 'only-a'
              ? `Turn ${row.a.index + 1} (A only)`
              : `Turn ${row.b.index + 1} (B only)`}
        </h3>
        {row.kind === 'pair' ? (
          <Badge tone={n ? 'confirm' : 'muted'}>{n ? plural(n, 'difference') : 'no differences'}</Badge>
        ) : (
          <Badge tone="info">one side only</Badge>
        )}
        {row.kind === 'pair' && !row.sameText ? <Badge tone="info">message edited</Badge> : null}
        {row.kind === 'pair' ? (
          <Button
            size="sm"
            variant="ghost"
            className="ml-auto"
            aria-expanded={graphsOpen}
            onClick={onToggleGraphs}
          >
            {graphsOpen ? 'Hide graphs' : 'Show graphs'}
          </Button>
        ) : null}
      </header>
      {diff ? <DecisionDiffView diff={diff} labels={['A', 'B']} /> : null}
      <div className="flex flex-col gap-2 sm:flex-row">
        <TurnText turn={row.kind === 'only-b' ? undefined : row.a} label="A" agentId={agents[0]} />
        <TurnText turn={row.kind === 'only-a' ? undefined : row.b} label="B" agentId={agents[1]} />
      </div>
      {row.kind === 'pair' && diff && graphsOpen ? <Graphs row={row} diff={diff} /> : null}
    </article>
  );
}

export function CompareLayout({
  pair,
  a,
  b,
  notReady,
  headerExtra,
  coverage,
  bundles,
  onlyDifferences,
  onOnlyDifferences,
  onPairChange,
  onOpenTask,
}: CompareLayoutProps) {
  const [openGraphs, setOpenGraphs] = useState<Record<string, boolean>>({});
  const alignment = useMemo(() => alignTurns(a.turns, b.turns), [a.turns, b.turns]);
  const rows: Row[] = useMemo(
    () =>
      alignment.rows.map((r) => ({
        ...r,
        key:
          r.kind === 'pair'
            ? `${r.a.interaction_id}|${r.b.interaction_id}`
            : r.kind === 'only-a'
              ? `a|${r.a.interaction_id}`
              : `b|${r.b.interaction_id}`,
        diff: r.kind === 'pair' ? diffTraces(r.a.trace, r.b.trace) : null,
      })),
    [alignment],
  );
  // The first row whose decision changed (else the first with any difference) shows its graphs.
  const firstChanged = rows.find((r) => r.diff?.decision.changed) ?? rows.find((r) => r.diff?.changed);
  const shown = onlyDifferences ? rows.filter((r) => r.kind !== 'pair' || r.diff?.changed) : rows;

  return (
    <section aria-label="Comparison" className="flex h-full min-h-0 flex-col">
      <header className="flex flex-wrap items-center gap-2 border-b border-zinc-200 bg-white px-4 py-2 dark:border-zinc-800 dark:bg-zinc-900">
        <h2 className="text-sm font-semibold">Compare</h2>
        {(
          [
            ['A', pair.a, a.title],
            ['B', pair.b, b.title],
          ] as const
        ).map(([label, id, title]) => (
          <button
            key={label}
            type="button"
            onClick={() => onOpenTask(id)}
            title={`Open ${id}`}
            className="max-w-64 truncate rounded border border-zinc-200 px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            <span className="font-semibold">{label}</span> {title}{' '}
            <span className="text-zinc-500">#{shortId(id)}</span>
          </button>
        ))}
        <Button size="sm" variant="ghost" onClick={() => onPairChange(formatComparePair(pair.b, pair.a))}>
          Swap
        </Button>
        <label className="ml-auto flex items-center gap-1.5 text-xs font-medium">
          <input
            type="checkbox"
            checked={onlyDifferences}
            onChange={(e) => onOnlyDifferences(e.target.checked)}
            className="size-4 accent-indigo-600"
          />
          Only differences
        </label>
        <Button size="sm" onClick={() => onPairChange(undefined)}>
          Close
        </Button>
        {notReady ? null : headerExtra}
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto bg-zinc-50 p-4 dark:bg-zinc-950">
        {notReady ?? (
          <div className="mx-auto flex max-w-6xl flex-col gap-3">
            {coverage}
            {alignment.prefix.length > 0 && !onlyDifferences ? (
              <details className="rounded-lg border border-dashed border-zinc-300 p-2 text-sm dark:border-zinc-700">
                <summary className="cursor-pointer text-zinc-600 dark:text-zinc-300">
                  {plural(alignment.prefix.length, 'shared turn')} before the threads differ
                </summary>
                <ol className="mt-2 flex flex-col gap-1 text-xs">
                  {alignment.prefix.map((p) => (
                    <li key={p.a.interaction_id}>
                      {p.a.index + 1}. {p.a.user_text || <em>(text not recorded)</em>}{' '}
                      <DecisionBadge decision={p.a.trace?.decision} />
                    </li>
                  ))}
                </ol>
              </details>
            ) : alignment.prefix.length > 0 ? (
              <p className="text-xs text-zinc-500">
                {plural(alignment.prefix.length, 'shared turn')} hidden.
              </p>
            ) : null}
            {alignment.matchedByText ? null : (
              <p role="note" className="text-xs text-zinc-600 dark:text-zinc-300">
                Too many turns differ to match them by what the user said: after the shared turns, they are
                paired in order.
              </p>
            )}
            {shown.length === 0 ? (
              <p className={cx('text-sm text-zinc-500')}>
                {rows.length === 0 ? 'The two threads hold the same turns.' : 'No aligned turn differs.'}
              </p>
            ) : (
              shown.map((r, i) => (
                <RowView
                  key={r.key}
                  row={r}
                  index={i}
                  agents={[a.agentId, b.agentId]}
                  graphsOpen={openGraphs[r.key] ?? r === firstChanged}
                  onToggleGraphs={() =>
                    setOpenGraphs((o) => ({ ...o, [r.key]: !(o[r.key] ?? r === firstChanged) }))
                  }
                />
              ))
            )}
            {bundles}
          </div>
        )}
      </div>
    </section>
  );
}
