import { memo, type ReactNode } from 'react';
import type { Witness } from '../../contract/analysis';
import { cx } from '../../lib/format';
import type { Problem } from './markers';

export interface ProblemsListProps {
  problems: readonly Problem[];
  onJump: (p: Problem) => void;
  /** A lint finding's witness: its values, clock and messages, and what they can become. */
  witnessView?: ((p: Problem, witness: Witness) => ReactNode) | undefined;
}

const SEVERITY_CLASS: Record<Problem['severity'], string> = {
  error: 'text-red-700 dark:text-red-300',
  warning: 'text-amber-700 dark:text-amber-300',
  info: 'text-sky-700 dark:text-sky-300',
};

/**
 * The draft's problems, errors first within each line; a click (or Enter) jumps to the spot. A
 * lint finding also says its rule and tool and, when the engine gave one, its witness in words.
 */
export const ProblemsList = memo(function ProblemsList({ problems, onJump, witnessView }: ProblemsListProps) {
  if (problems.length === 0) {
    return <p className="px-3 py-2 text-xs text-zinc-500 dark:text-zinc-400">No problems.</p>;
  }
  return (
    <ul aria-label="Problems" className="max-h-40 overflow-auto text-xs">
      {problems.map((p) => {
        const about = p.lint ? [p.lint.rule, p.lint.tool].filter(Boolean).join(' · ') : '';
        const witness = p.lint?.witness;
        return (
          <li key={p.id}>
            <button
              type="button"
              onClick={() => onJump(p)}
              data-line={p.startLineNumber}
              className="flex w-full items-baseline gap-2 px-3 py-1 text-left hover:bg-zinc-100 focus-visible:bg-zinc-100 dark:hover:bg-zinc-800 dark:focus-visible:bg-zinc-800"
            >
              <span className={cx('shrink-0 font-semibold uppercase', SEVERITY_CLASS[p.severity])}>
                {p.source === 'lint' ? `lint ${p.severity}` : p.severity}
              </span>
              <span className="min-w-0 flex-1 break-words">
                {p.message}
                {about ? <span className="ml-1 text-zinc-500">({about})</span> : null}
                {p.source === 'service' ? (
                  <span className="ml-1 text-zinc-500">(rejected by the service)</span>
                ) : null}
              </span>
              <span className="shrink-0 text-zinc-500 tabular-nums">
                line {p.startLineNumber}, col {p.startColumn}
              </span>
            </button>
            {witness && witnessView ? (
              <div className="flex flex-col gap-0.5 pb-1 pl-8 pr-3 text-zinc-600 dark:text-zinc-400">
                {witnessView(p, witness)}
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
});
