import { memo } from 'react';
import { cx } from '../../lib/format';
import type { Problem } from './markers';

export interface ProblemsListProps {
  problems: readonly Problem[];
  onJump: (p: Problem) => void;
}

/** The draft's problems, errors first within each line; a click (or Enter) jumps to the spot. */
export const ProblemsList = memo(function ProblemsList({ problems, onJump }: ProblemsListProps) {
  if (problems.length === 0) {
    return <p className="px-3 py-2 text-xs text-zinc-500 dark:text-zinc-400">No problems.</p>;
  }
  return (
    <ul aria-label="Problems" className="max-h-40 overflow-auto text-xs">
      {problems.map((p) => (
        <li key={p.id}>
          <button
            type="button"
            onClick={() => onJump(p)}
            data-line={p.startLineNumber}
            className="flex w-full items-baseline gap-2 px-3 py-1 text-left hover:bg-zinc-100 focus-visible:bg-zinc-100 dark:hover:bg-zinc-800 dark:focus-visible:bg-zinc-800"
          >
            <span
              className={cx(
                'shrink-0 font-semibold uppercase',
                p.severity === 'error'
                  ? 'text-red-700 dark:text-red-300'
                  : 'text-amber-700 dark:text-amber-300',
              )}
            >
              {p.severity}
            </span>
            <span className="min-w-0 flex-1 break-words">
              {p.message}
              {p.source === 'service' ? (
                <span className="ml-1 text-zinc-500">(rejected by the service)</span>
              ) : null}
            </span>
            <span className="shrink-0 text-zinc-500 tabular-nums">
              line {p.startLineNumber}, col {p.startColumn}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
});
