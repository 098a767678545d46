/**
 * The virtualized transcript: only the rows in view are in the DOM, so threads of thousands of
 * turns scroll smoothly. Rows: the welcome message (when known), one row per turn of the thread,
 * then messages on their way (pending or failed). Of a long thread only a window of turns is held
 * (`part`): a turn not held is a row of the same estimated height saying which turns are loading
 * (or that they did not load), and the turns in view are asked for as the reader scrolls. Rows are
 * made as they are drawn, never for the whole thread. Per-turn actions come from `renderTurnActions`.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import { canRetry, type OutboxEntry } from './outbox-store';
import type { Turn } from '../../domain/transcript/transcript';
import { Chips, TurnView, UserBubble } from './TurnView';
import { SafeMarkdown } from './SafeMarkdown';
import { missingPage, pageOf } from '../../api/trace-window';
import type { TranscriptPart } from '../../domain/transcript/use-transcript';
import { useLoadInView } from '../../domain/transcript/use-load-in-view';
import { useFollowNewest } from './use-follow-newest';

const formatCount = (n: number) => n.toLocaleString('en-US');

export interface Welcome {
  text: string;
  suggestions: string[];
}

type Row =
  | { kind: 'welcome'; welcome: Welcome }
  | { kind: 'turn'; turn: Turn }
  | { kind: 'missing'; position: number }
  | { kind: 'outbox'; entry: OutboxEntry };

export interface MessageListProps {
  welcome?: Welcome | undefined;
  turns: readonly Turn[];
  outbox: OutboxEntry[];
  selectedTurnId: string | undefined;
  onSelectTurn: (turnId: string) => void;
  onSend: (text: string) => void;
  onRetry: (entry: OutboxEntry) => void;
  onDiscard: (entry: OutboxEntry) => void;
  /** A message the service refused as such: back into the message box to be shortened. */
  onEdit?: ((entry: OutboxEntry) => void) | undefined;
  renderTurnActions?: ((turn: Turn) => ReactNode) | undefined;
  /** Scroll the selected turn into view when it changes (e.g. picked in the thread view). */
  followSelection?: boolean;
  part?: TranscriptPart | undefined;
}

/** A row's estimated height; a turn not loaded is drawn at this height, so loading it moves little. */
const ROW_ESTIMATE_PX = 140;

function rowKey(r: Row): string {
  return r.kind === 'welcome'
    ? 'welcome'
    : r.kind === 'turn'
      ? `t:${r.turn.id}`
      : r.kind === 'missing'
        ? `m:${r.position}`
        : `o:${r.entry.localId}`;
}

export function MessageList({
  welcome,
  turns,
  outbox,
  selectedTurnId,
  onSelectTurn,
  onSend,
  onRetry,
  onDiscard,
  onEdit,
  renderTurnActions,
  followSelection = true,
  part,
}: MessageListProps) {
  // Rows by index, made when drawn: [welcome] [turn positions 0 … turnRows) [outbox].
  const start = part?.start ?? 0;
  const first = welcome ? 1 : 0;
  const turnRows = Math.max(part?.total ?? 0, start + turns.length);
  const rowCount = first + turnRows + outbox.length;
  const rowAt = (i: number): Row | undefined => {
    if (i < first) return welcome ? { kind: 'welcome', welcome } : undefined;
    const position = i - first;
    if (position < turnRows) {
      const turn = position >= start ? turns[position - start] : undefined;
      return turn ? { kind: 'turn', turn } : { kind: 'missing', position };
    }
    const entry = outbox[position - turnRows];
    return entry ? { kind: 'outbox', entry } : undefined;
  };
  const busy = outbox.some((e) => e.status === 'pending');

  const scrollRef = useRef<HTMLDivElement>(null);
  // Rows are keyed by their index (the virtualizer's default): a row is a place in the thread, the
  // same whether its turn is held or still loading, and the key function never changes, so the
  // virtualizer does not go over every row of a long thread again on each render (only when the
  // number of rows changes, a tight loop over numbers).
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render only
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 6,
  });

  // Sync with the service: the turns in view that are not held are asked for.
  const items = virtualizer.getVirtualItems();
  const viewFrom = Math.max(0, (items[0]?.index ?? 0) - first);
  const viewTo = Math.min(turnRows, (items.at(-1)?.index ?? -1) - first + 1);
  const loadTurns = part?.loadTurns;
  const missingInView = viewTo > viewFrom && (viewFrom < start || viewTo > start + turns.length);
  useLoadInView(loadTurns, viewFrom, viewTo, missingInView);

  // Sync with the DOM: the newest row kept in view while the reader wants it there (on opening,
  // after a message of their own, when rows arrive while they read the end), through the rows'
  // measuring and the newest page's arrival.
  const lastRow = rowAt(rowCount - 1);
  const lastPending =
    lastRow?.kind === 'missing' &&
    !(part?.window && part.window.failed.has(pageOf(part.window, lastRow.position)));
  const { onScroll, stopFollowing } = useFollowNewest(virtualizer, scrollRef, {
    count: rowCount,
    lastKey: lastRow ? rowKey(lastRow) : undefined,
    settled: !busy && !lastPending,
    ownMessages: outbox.length,
  });
  // The thread's newest turn, when held.
  const lastTurnId = start + turns.length >= turnRows ? turns.at(-1)?.id : undefined;

  // Sync with the DOM: bring a turn selected elsewhere into view, once per selection (when it is
  // held: a turn of a long thread not held yet is brought into view when its page arrives). A
  // turn other than the newest is the reader's pick: the list stops following the newest.
  const selectedTurn = selectedTurnId ? turns.find((t) => t.id === selectedTurnId) : undefined;
  const selectedIndex = selectedTurn ? first + selectedTurn.index : -1;
  const selectionShown = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!followSelection || selectedIndex < 0 || selectionShown.current === selectedTurnId) return;
    selectionShown.current = selectedTurnId;
    if (selectedIndex !== rowCount - 1) stopFollowing();
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [followSelection, selectedIndex, selectedTurnId, rowCount, stopFollowing, virtualizer]);

  return (
    <div
      ref={scrollRef}
      onScroll={onScroll}
      className="h-full overflow-y-auto"
      role="log"
      aria-label="Conversation"
      aria-live="polite"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {items.map((item) => {
          const row = rowAt(item.index);
          if (!row) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                width: '100%',
                transform: `translateY(${item.start}px)`,
              }}
            >
              {row.kind === 'welcome' ? (
                <div className="px-4 py-2">
                  <div className="max-w-[92%] rounded-2xl rounded-bl-sm border border-zinc-200 bg-white px-3 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-900">
                    <SafeMarkdown text={row.welcome.text} />
                    {turns.length === 0 && outbox.length === 0 ? (
                      <Chips
                        items={row.welcome.suggestions}
                        onPick={onSend}
                        label="Starter suggestions"
                        disabled={busy}
                      />
                    ) : null}
                  </div>
                </div>
              ) : row.kind === 'missing' ? (
                <MissingTurn position={row.position} part={part} />
              ) : row.kind === 'turn' ? (
                <TurnView
                  turn={row.turn}
                  selected={row.turn.id === selectedTurnId}
                  isLast={row.turn.id === lastTurnId && outbox.length === 0}
                  busy={busy && row.turn.id === lastTurnId}
                  onSelect={onSelectTurn}
                  onSuggestion={onSend}
                  renderActions={renderTurnActions}
                />
              ) : (
                <div className="flex flex-col gap-2 px-4 py-2">
                  <UserBubble text={row.entry.text} />
                  {row.entry.status === 'pending' ? (
                    <div className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
                      <Spinner label="Waiting for the reply" /> The agent is replying…
                    </div>
                  ) : row.entry.error ? (
                    <ErrorCallout
                      error={row.entry.error}
                      action={
                        <div className="flex gap-2">
                          {canRetry(row.entry) ? (
                            <Button size="sm" variant="primary" onClick={() => onRetry(row.entry)}>
                              Retry
                            </Button>
                          ) : onEdit ? (
                            <Button size="sm" variant="primary" onClick={() => onEdit(row.entry)}>
                              Edit in the message box
                            </Button>
                          ) : null}
                          <Button size="sm" variant="ghost" onClick={() => onDiscard(row.entry)}>
                            Discard
                          </Button>
                        </div>
                      }
                    />
                  ) : null}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * A turn not held: which turns are loading (its page's), or that they did not load and why,
 * never a silent hole. Drawn at the estimated row height.
 */
function MissingTurn({ position, part }: { position: number; part: TranscriptPart | undefined }) {
  const { from, to, failed } = missingPage(part?.window, position);
  return (
    <div
      aria-busy={!failed}
      className="flex items-center px-4 py-2 text-sm text-zinc-500 dark:text-zinc-400"
      style={{ height: ROW_ESTIMATE_PX }}
    >
      {failed ? (
        <ErrorCallout
          error={failed}
          action={
            <Button size="sm" onClick={() => part?.loadTurns(from, to, true)}>
              Try again
            </Button>
          }
        />
      ) : (
        <span>
          Turn {formatCount(position + 1)}: loading turns {formatCount(from + 1)}–{formatCount(to)}…
        </span>
      )}
    </div>
  );
}
