/**
 * The thread at a glance, fed by the trace list (all pages): one row per turn with its intent,
 * decision and rule counts by result. Selecting a row focuses that turn.
 */
import { useMemo } from 'react';
import { Badge } from '../../components/ui/Badge';
import { EmptyState } from '../../components/ui/EmptyState';
import { Spinner } from '../../components/ui/Spinner';
import { cx } from '../../lib/format';
import { resultTone, showDecision } from '../../lib/trace-tones';
import { bundleLabel } from '../threads';
import { summarizeTurns, type SummaryInput } from './thread-summary';

export interface ThreadViewProps {
  taskId: string | undefined;
  turns: SummaryInput[];
  turn: { id: string } | undefined;
  selectTurn: (turnId: string) => void;
  isLoading: boolean;
}

export default function ThreadView({ taskId, turns, turn, selectTurn, isLoading }: ThreadViewProps) {
  const rows = useMemo(() => summarizeTurns(turns), [turns]);
  if (!taskId)
    return <EmptyState title="No thread open">Open or start a thread to see its turns here.</EmptyState>;
  if (isLoading)
    return (
      <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
        <Spinner label="Loading the traces" /> Loading the traces…
      </div>
    );
  if (rows.length === 0)
    return <EmptyState title="No turns yet">Each message you send adds a row here.</EmptyState>;
  return (
    <div className="h-full overflow-y-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Turns of this thread</caption>
        <thead className="sticky top-0 bg-white text-xs text-zinc-500 dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            <th scope="col" className="px-3 py-2">
              #
            </th>
            <th scope="col" className="px-3 py-2">
              Intent
            </th>
            <th scope="col" className="px-3 py-2">
              Decision
            </th>
            <th scope="col" className="px-3 py-2">
              Rules
            </th>
            <th scope="col" className="px-3 py-2">
              Ran with
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const decision = showDecision(r.decision);
            const selected = r.id === turn?.id;
            return (
              <tr
                key={r.id}
                aria-selected={selected}
                className={cx(
                  'border-t border-zinc-100 dark:border-zinc-800',
                  selected
                    ? 'bg-indigo-50 dark:bg-indigo-950/40'
                    : 'hover:bg-zinc-50 dark:hover:bg-zinc-800/50',
                )}
              >
                <td className="px-3 py-2 text-zinc-500">{r.index + 1}</td>
                <td className="px-3 py-2">
                  <button
                    type="button"
                    onClick={() => selectTurn(r.id)}
                    className="text-left hover:underline"
                    aria-label={`Focus turn ${r.index + 1}`}
                    title={r.userText}
                  >
                    {r.intent || <span className="text-zinc-400 italic">no intent</span>}
                  </button>
                </td>
                <td className="px-3 py-2">
                  {decision ? <Badge tone={decision.tone}>{decision.label}</Badge> : null}
                </td>
                <td className="px-3 py-2">
                  <div className="flex flex-wrap gap-1">
                    {r.ruleCounts.map(([result, n]) => (
                      <Badge key={result} tone={resultTone(result)}>
                        {n} {result}
                      </Badge>
                    ))}
                  </div>
                </td>
                <td className="px-3 py-2 text-xs text-zinc-600 dark:text-zinc-400">
                  {bundleLabel(undefined, r.bundleHash)}
                  {r.versionId ? ` · ${r.versionId}` : ''}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
