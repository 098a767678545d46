/** The threads kept in this browser, newest activity first; switching is instant (all local). */
import { useMemo } from 'react';
import { Button } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { cx, formatRelative } from '../../lib/format';
import { selectRemoveThread, selectThreads, sortThreads, useThreadsStore } from './threads-store';

export interface ThreadListProps {
  activeTaskId: string | undefined;
  onOpen: (taskId: string) => void;
  /** Opens "New thread" (which asks for the agent). */
  onNew: () => void;
}

export function ThreadList({ activeTaskId, onOpen, onNew }: ThreadListProps) {
  const threads = useThreadsStore(selectThreads);
  const removeThread = useThreadsStore(selectRemoveThread);
  const sorted = useMemo(() => sortThreads(threads), [threads]);

  return (
    <nav aria-label="Threads" className="flex h-full min-h-0 flex-col">
      <div className="flex items-center justify-between gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <h2 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
          Threads
        </h2>
        <Button size="sm" variant="primary" onClick={onNew} aria-haspopup="dialog">
          New thread
        </Button>
      </div>
      {sorted.length === 0 ? (
        <EmptyState title="No threads yet">
          Start one with “New thread”. Threads are kept in this browser.
        </EmptyState>
      ) : (
        <ul className="min-h-0 flex-1 overflow-y-auto py-1">
          {sorted.map((t) => (
            <li key={t.id} className="group relative">
              <button
                type="button"
                onClick={() => onOpen(t.id)}
                aria-current={t.id === activeTaskId ? 'page' : undefined}
                className={cx(
                  'flex w-full flex-col items-start gap-0.5 px-3 py-2 pr-8 text-left',
                  t.id === activeTaskId
                    ? 'bg-indigo-50 dark:bg-indigo-950/50'
                    : 'hover:bg-zinc-50 dark:hover:bg-zinc-900',
                )}
              >
                <span className="w-full truncate text-sm text-zinc-900 dark:text-zinc-100">
                  {t.title || t.id}
                </span>
                <span className="w-full truncate text-xs text-zinc-500 dark:text-zinc-400">
                  {t.agent_id || 'unknown agent'} · {formatRelative(t.updated_at ?? t.created_at)}
                </span>
              </button>
              <button
                type="button"
                aria-label={`Forget thread ${t.title || t.id}`}
                title="Forget this thread (in this browser only)"
                onClick={() => removeThread(t.id)}
                className="absolute top-2 right-2 hidden rounded px-1 text-zinc-500 group-focus-within:block group-hover:block hover:text-red-600"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
