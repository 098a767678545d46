/**
 * The thread list: this browser's threads (newest activity first), then, on a service that lists
 * them (the reference service), the other threads the key may see: the team's. Filterable by
 * agent and searchable by title. Virtualized with rows of one fixed height: only the rows on
 * screen are drawn, each row reads its own thread, and a send changes one record and (at most)
 * moves one id in the order, so it redraws O(1) rows whatever the number of threads. ↑ / ↓ /
 * Home / End move the focus between threads, scrolling rows that are not drawn into view.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useAgents } from '../../api/agents';
import { taskListQueryOptions, type TaskSummaryIn } from '../../api/task-list';
import { Button } from '../../components/ui/Button';
import { useDebouncedValue } from '../../components/ui/use-debounced-value';
import { cx, formatRelative } from '../../lib/format';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { isRowKey, listRows, matchesThread, stepRow, type ThreadFilter } from './thread-rows';
import {
  selectMembership,
  selectOrder,
  selectRemoveThread,
  selectUnreadable,
  useThreadsStore,
} from '../../domain/threads/threads-store';

export interface ThreadListProps {
  activeTaskId: string | undefined;
  onOpen: (taskId: string) => void;
  /** Opens "New thread" (which asks for the agent). */
  onNew: () => void;
}

/** Every row's height in pixels (two lines): fixed, so nothing is measured. */
export const THREAD_ROW_HEIGHT = 52;

const rowClass = (active: boolean) =>
  cx(
    'flex h-full w-full flex-col items-start justify-center gap-0.5 px-3 pr-8 text-left',
    active ? 'bg-indigo-50 dark:bg-indigo-950/50' : 'hover:bg-zinc-50 dark:hover:bg-zinc-900',
  );

const LocalRow = memo(function LocalRow({
  id,
  active,
  onOpen,
}: {
  id: string;
  active: boolean;
  onOpen: (taskId: string) => void;
}) {
  const t = useThreadsStore((s) => s.threads.get(id));
  const removeThread = useThreadsStore(selectRemoveThread);
  if (!t) return null;
  return (
    <div className="group relative h-full">
      <button
        type="button"
        onClick={() => onOpen(id)}
        aria-current={active ? 'page' : undefined}
        className={rowClass(active)}
      >
        <span className="w-full truncate text-sm text-zinc-900 dark:text-zinc-100">{t.title || t.id}</span>
        <span className="w-full truncate text-xs text-zinc-500 dark:text-zinc-400">
          {t.agent_id || 'unknown agent'} · {formatRelative(t.updated_at ?? t.created_at)}
        </span>
      </button>
      <button
        type="button"
        aria-label={`Forget thread ${t.title || t.id}`}
        title="Forget this thread (in this browser only)"
        onClick={() => removeThread(id)}
        className="absolute top-2 right-2 hidden rounded px-1 text-zinc-500 group-focus-within:block group-hover:block hover:text-red-600"
      >
        ×
      </button>
    </div>
  );
});

const TeamRow = memo(function TeamRow({
  item,
  active,
  onOpen,
}: {
  item: TaskSummaryIn;
  active: boolean;
  onOpen: (taskId: string) => void;
}) {
  const turns = `${item.turn_count} turn${item.turn_count === 1 ? '' : 's'}`;
  return (
    <button
      type="button"
      onClick={() => onOpen(item.task_id)}
      aria-current={active ? 'page' : undefined}
      className={rowClass(active)}
    >
      <span className="w-full truncate text-sm text-zinc-900 dark:text-zinc-100">
        {item.title || item.task_id}
      </span>
      <span className="w-full truncate text-xs text-zinc-500 dark:text-zinc-400">
        {item.agent_id || 'unknown agent'} · {turns} · {formatRelative(item.last_activity_at)}
        {item.parent ? ' · branch' : ''}
      </span>
    </button>
  );
});

export function ThreadList({ activeTaskId, onOpen, onNew }: ThreadListProps) {
  const [agent, setAgent] = useState('');
  const [titleTyped, setTitleTyped] = useState('');
  const title = useDebouncedValue(titleTyped.trim(), 250);
  const filter: ThreadFilter = useMemo(() => ({ agent, title }), [agent, title]);
  const filtering = agent !== '' || title !== '';

  const order = useThreadsStore(selectOrder);
  const membership = useThreadsStore(selectMembership);
  const unreadable = useThreadsStore(selectUnreadable);
  // The records are read only to filter: unfiltered, a send changes nothing this list reads but
  // (when the thread moves) the order.
  const version = useThreadsStore((s) => (filtering ? s.version : -1));
  // (`version` stands for the records read.)
  const local = useMemo(() => {
    if (version < 0) return order;
    const threads = useThreadsStore.getState().threads;
    return order.filter((id) => matchesThread(threads.get(id), filter));
  }, [order, version, filter]);

  const keyReady = useKeyReady();
  const team = useInfiniteQuery({ ...taskListQueryOptions(agent, title), enabled: keyReady });
  const listed = team.data?.pages[0] !== null && team.data !== undefined;
  const pages = team.data?.pages;
  // The team's threads that are not this browser's: recomputed when a thread is added or
  // removed here or a page arrives, not on a send.
  const others = useMemo(() => {
    const mine = useThreadsStore.getState().threads;
    return (pages ?? []).flatMap((p) => (p ? p.items.filter((i) => !mine.has(i.task_id)) : []));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- membership stands for the ids in `mine`
  }, [pages, membership]);
  const rows = listRows(local, others);

  const agents = useAgents(keyReady);
  const agentIds = (agents.data ?? []).map((a) => a.id);

  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render only
  const virtualizer = useVirtualizer({
    count: rows.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => THREAD_ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items[items.length - 1]?.index ?? -1;

  // Sync with the server: the next page of the team's threads when the last rows come into view.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = team;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= rows.count - 5) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastShown, rows.count]);

  // ↑ / ↓ / Home / End move between threads, also to rows not drawn yet: the list scrolls the row
  // in, and the row takes focus once drawn.
  const focusNext = useRef<number | null>(null);
  const focusRow = (index: number) => {
    const button = scrollRef.current?.querySelector<HTMLElement>(`li[data-index="${index}"] button`);
    if (!button) return false;
    button.focus();
    return true;
  };
  useEffect(() => {
    if (focusNext.current === null) return;
    // Only while the focus is still in the list (or was lost with the row it was on, scrolled out):
    // the user may have moved on before the row came.
    const at = document.activeElement;
    if (at && at !== document.body && !scrollRef.current?.contains(at)) focusNext.current = null;
    else if (focusRow(focusNext.current)) focusNext.current = null;
  });
  const onRowKey = (e: KeyboardEvent<HTMLUListElement>) => {
    if (!isRowKey(e.key) || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const from = Number((e.target as HTMLElement).closest('li[data-index]')?.getAttribute('data-index'));
    if (!Number.isInteger(from)) return;
    const next = stepRow(rows, from, e.key);
    e.preventDefault();
    if (next === undefined) return;
    virtualizer.scrollToIndex(next, { align: 'auto' });
    if (!focusRow(next)) focusNext.current = next;
  };

  const searchId = useId();
  const agentId = useId();
  const empty = rows.count === 0;

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
      <div className="flex gap-1 border-b border-zinc-200 px-2 py-1.5 dark:border-zinc-800">
        <label htmlFor={searchId} className="sr-only">
          Search threads by title
        </label>
        <input
          id={searchId}
          type="search"
          value={titleTyped}
          onChange={(e) => setTitleTyped(e.target.value)}
          placeholder="Search titles"
          className="min-w-0 flex-1 rounded border border-zinc-300 bg-transparent px-2 py-1 text-xs dark:border-zinc-700"
        />
        <label htmlFor={agentId} className="sr-only">
          Filter threads by agent
        </label>
        <select
          id={agentId}
          value={agent}
          onChange={(e) => setAgent(e.target.value)}
          className="max-w-[45%] rounded border border-zinc-300 bg-transparent px-1 py-1 text-xs dark:border-zinc-700"
        >
          <option value="">All agents</option>
          {agentIds.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
          {agent && !agentIds.includes(agent) ? <option value={agent}>{agent}</option> : null}
        </select>
      </div>
      {empty ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center">
          <p className="text-sm font-semibold text-zinc-800 dark:text-zinc-100">
            {filtering ? 'No thread matches' : 'No threads yet'}
          </p>
          <p className="max-w-sm text-sm text-zinc-500 dark:text-zinc-400">
            {filtering ? 'Change the search or the agent.' : 'Start one with “New thread”.'}
          </p>
        </div>
      ) : (
        <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto">
          <ul
            className="relative w-full"
            style={{ height: virtualizer.getTotalSize() }}
            aria-label="Thread list"
            onKeyDown={onRowKey}
          >
            {items.map((v) => {
              const row = rows.at(v.index);
              const style = { height: THREAD_ROW_HEIGHT, transform: `translateY(${v.start}px)` };
              const key =
                row.kind === 'local'
                  ? `l:${row.id}`
                  : row.kind === 'team'
                    ? `t:${row.item.task_id}`
                    : 'heading';
              return (
                <li key={key} data-index={v.index} className="absolute top-0 left-0 w-full" style={style}>
                  {row.kind === 'local' ? (
                    <LocalRow id={row.id} active={row.id === activeTaskId} onOpen={onOpen} />
                  ) : row.kind === 'team' ? (
                    <TeamRow item={row.item} active={row.item.task_id === activeTaskId} onOpen={onOpen} />
                  ) : (
                    <h3 className="flex h-full items-end px-3 pb-1 text-xs font-semibold text-zinc-500 dark:text-zinc-400">
                      Shared on this service
                    </h3>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <p className="border-t border-zinc-200 px-3 py-1.5 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
        {!keyReady
          ? 'Threads kept in this browser (give the key to see the team’s).'
          : team.isPending
            ? 'Threads of this browser; looking for the team’s…'
            : team.isError
              ? 'Threads kept in this browser (the service’s list could not be read).'
              : listed
                ? 'This browser’s threads first, then every other thread your key may see.'
                : 'Threads kept in this browser (this service does not list threads).'}
        {unreadable.length > 0
          ? ` ${unreadable.length === 1 ? 'One thread' : `${unreadable.length} threads`} stored in this browser could not be read and ${unreadable.length === 1 ? 'is' : 'are'} not listed.`
          : null}
      </p>
    </nav>
  );
}
