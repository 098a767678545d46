/**
 * The virtualized transcript: only the rows in view are in the DOM, so threads of thousands of
 * turns scroll smoothly. Rows: the welcome message (when known), the turns, then messages on their
 * way (pending or failed). Per-turn actions come from `renderTurnActions`.
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

export interface Welcome {
  text: string;
  suggestions: string[];
}

type Row =
  | { kind: 'welcome'; welcome: Welcome }
  | { kind: 'turn'; turn: Turn }
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
}

/** How close to the end counts as "reading the newest turn". */
const NEAR_BOTTOM_PX = 120;

function rowKey(r: Row): string {
  return r.kind === 'welcome' ? 'welcome' : r.kind === 'turn' ? `t:${r.turn.id}` : `o:${r.entry.localId}`;
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
}: MessageListProps) {
  const rows: Row[] = [];
  if (welcome) rows.push({ kind: 'welcome', welcome });
  for (const turn of turns) rows.push({ kind: 'turn', turn });
  for (const entry of outbox) rows.push({ kind: 'outbox', entry });
  const busy = outbox.some((e) => e.status === 'pending');

  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render only
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 140,
    overscan: 6,
    getItemKey: (i) => (rows[i] ? rowKey(rows[i]) : i),
  });

  // Sync with the DOM: keep the newest row in view when rows are added, unless the reader has
  // scrolled up to read earlier turns (a message of their own always brings them back down).
  const atBottom = useRef(true);
  const onScroll = () => {
    const el = scrollRef.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
  };
  const count = rows.length;
  const lastIsOwnMessage = rows.at(-1)?.kind === 'outbox';
  const shownCount = useRef(0);
  useEffect(() => {
    const firstRows = shownCount.current === 0;
    shownCount.current = count;
    if (count > 0 && (firstRows || atBottom.current || lastIsOwnMessage))
      virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [count, lastIsOwnMessage, virtualizer]);

  // Sync with the DOM: bring a turn selected elsewhere into view.
  const selectedIndex = selectedTurnId
    ? rows.findIndex((r) => r.kind === 'turn' && r.turn.id === selectedTurnId)
    : -1;
  useEffect(() => {
    if (followSelection && selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [followSelection, selectedIndex, virtualizer]);

  const lastTurnId = turns.at(-1)?.id;

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
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
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
