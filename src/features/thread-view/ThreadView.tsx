/**
 * The thread at a glance, fed by the shared transcript: one row per turn with its intent,
 * decision and rule counts by result. Virtualized: only the rows in view (and a few around) are
 * in the document, each summarised when first drawn, so a 10,000-turn thread costs what a short
 * one does. The browser's find-in-page sees only the rows drawn: "Go to turn" reaches any turn.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { missingPage } from '../../api/trace-window';
import type { TranscriptPart } from '../../domain/transcript/use-transcript';
import { useLoadInView } from '../../domain/transcript/use-load-in-view';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import { toApiError } from '../../api/errors';
import { cx } from '../../lib/format';
import { resultTone, showDecision } from '../../lib/trace-tones';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { bundleLabel } from '../../domain/threads/run-config';
import { summaryOf, type SummaryInput } from './thread-summary';

export interface ThreadViewProps {
  taskId: string | undefined;
  turns: readonly SummaryInput[];
  turn: { id: string } | undefined;
  selectTurn: (turnId: string) => void;
  isLoading: boolean;
  /** Why the thread's turns could not be read (shown with whatever turns are known). */
  error?: unknown;
  retry?: (() => void) | undefined;
  /** Of a long thread, which part `turns` are: the rows of turns not held say they are loading. */
  part?: TranscriptPart | undefined;
}

/** Grid columns shared by the header and the rows (#, intent, decision, rules, ran with). */
const COLUMNS = 'grid grid-cols-[3.5rem_minmax(0,1.3fr)_minmax(0,1fr)_minmax(0,1.4fr)_minmax(0,1fr)]';
const ROW_ESTIMATE_PX = 41;

export default function ThreadView({
  taskId,
  turns,
  turn,
  selectTurn,
  isLoading,
  error,
  retry,
  part,
}: ThreadViewProps) {
  const keyReady = useKeyReady();
  if (!taskId)
    return <EmptyState title="No thread open">Open or start a thread to see its turns here.</EmptyState>;
  if (isLoading)
    return (
      <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
        <Spinner label="Loading the traces" /> Loading the traces…
      </div>
    );
  const failure = error ? (
    <div className="p-3">
      <ErrorCallout
        error={toApiError(error)}
        action={
          retry ? (
            <Button size="sm" onClick={retry}>
              Try again
            </Button>
          ) : undefined
        }
      />
    </div>
  ) : null;
  if (turns.length === 0)
    return (
      failure ??
      (keyReady ? (
        <EmptyState title="No turns yet">Each message you send adds a row here.</EmptyState>
      ) : (
        <EmptyState title="Waiting for the API key">
          This thread’s turns load once the API key is entered.
        </EmptyState>
      ))
    );
  return (
    <div className="flex h-full min-h-0 flex-col">
      {failure}
      <TurnRows turns={turns} part={part} selectedId={turn?.id} selectTurn={selectTurn} />
    </div>
  );
}

function TurnRows({
  turns,
  part,
  selectedId,
  selectTurn,
}: {
  turns: readonly SummaryInput[];
  part: TranscriptPart | undefined;
  selectedId: string | undefined;
  selectTurn: (turnId: string) => void;
}) {
  // One row per turn of the thread (row i = thread position i); a turn not held is a row saying
  // it is loading, asked for when in view.
  const start = part?.start ?? 0;
  const count = Math.max(part?.total ?? 0, start + turns.length);
  const turnAt = (i: number) => (i >= start ? turns[i - start] : undefined);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render only
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 8,
    // (Keyed by index, the default: a row is a thread position, and a key function that never
    // changes spares the virtualizer a pass over every row on each render.)
  });
  const items = virtualizer.getVirtualItems();
  const viewFrom = items[0]?.index ?? 0;
  const viewTo = (items.at(-1)?.index ?? -1) + 1;
  const loadTurns = part?.loadTurns;
  const missingInView = viewTo > viewFrom && (viewFrom < start || viewTo > start + turns.length);
  useLoadInView(loadTurns, viewFrom, viewTo, missingInView);
  // A turn jumped to that is not held yet: selected once it is.
  const [pendingJump, setPendingJump] = useState<number | null>(null);
  const jumped = pendingJump === null ? undefined : turnAt(pendingJump);
  useEffect(() => {
    if (!jumped) return;
    setPendingJump(null);
    selectTurn(jumped.id);
  }, [jumped, selectTurn]);

  // Sync with the DOM: the selected turn (pinned, or the newest when following) in view when it
  // changes, so a new turn shows at the bottom and a turn picked elsewhere is found here.
  const selectedHeld = selectedId ? turns.findIndex((t) => t.id === selectedId) : -1;
  const selectedIndex = selectedId ? (selectedHeld >= 0 ? start + selectedHeld : -1) : count - 1;
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  // Keyboard: focus moves row to row (↑ ↓ Home End), scrolling the next row into the document first.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  useEffect(() => {
    if (focusIndex === null) return;
    virtualizer.scrollToIndex(focusIndex, { align: 'auto' });
    let frames = 0;
    const focus = () => {
      const button = scrollRef.current?.querySelector<HTMLButtonElement>(
        `[data-index="${focusIndex}"] button`,
      );
      if (button) button.focus();
      // (A turn not held yet is drawn once its page is in: a few frames more.)
      else if ((frames += 1) < 120) requestAnimationFrame(focus);
    };
    requestAnimationFrame(focus);
  }, [focusIndex, virtualizer]);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const from = Number((e.target as HTMLElement).closest('[data-index]')?.getAttribute('data-index'));
    if (!Number.isInteger(from)) return;
    const to =
      e.key === 'ArrowDown'
        ? from + 1
        : e.key === 'ArrowUp'
          ? from - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? count - 1
              : null;
    if (to === null) return;
    e.preventDefault();
    setFocusIndex(Math.max(0, Math.min(count - 1, to)));
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <JumpToTurn
        count={count}
        onJump={(index) => {
          const t = turnAt(index);
          if (t) selectTurn(t.id);
          else setPendingJump(index);
          setFocusIndex(index);
        }}
      />
      <div
        role="table"
        aria-label="Turns of this thread"
        aria-rowcount={count + 1}
        className="flex min-h-0 flex-1 flex-col text-left text-sm"
      >
        <div role="rowgroup">
          <div
            role="row"
            aria-rowindex={1}
            className={cx(
              COLUMNS,
              'border-b border-zinc-200 bg-white text-xs text-zinc-500 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400',
            )}
          >
            {['#', 'Intent', 'Decision', 'Rules', 'Ran with'].map((h) => (
              <div key={h} role="columnheader" className="px-3 py-2">
                {h}
              </div>
            ))}
          </div>
        </div>
        <div ref={scrollRef} role="rowgroup" className="min-h-0 flex-1 overflow-y-auto" onKeyDown={onKeyDown}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
            {items.map((item) => {
              const t = turnAt(item.index);
              if (!t)
                return (
                  <MissingRow
                    key={item.key}
                    index={item.index}
                    start={item.start}
                    part={part}
                    measure={virtualizer.measureElement}
                  />
                );
              return (
                <TurnRow
                  key={item.key}
                  index={item.index}
                  start={item.start}
                  turn={t}
                  selected={t.id === selectedId}
                  selectTurn={selectTurn}
                  measure={virtualizer.measureElement}
                />
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

/** A turn not held: which turns are loading (its page's), or that they did not load and why. */
function MissingRow({
  index,
  start,
  part,
  measure,
}: {
  index: number;
  start: number;
  part: TranscriptPart | undefined;
  measure: (el: Element | null) => void;
}) {
  const { from, to, failed } = missingPage(part?.window, index);
  return (
    <div
      ref={measure}
      data-index={index}
      role="row"
      aria-rowindex={index + 2}
      aria-busy={!failed}
      style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${start}px)` }}
      className={cx(COLUMNS, 'border-t border-zinc-100 dark:border-zinc-800')}
    >
      <div role="cell" className="px-3 py-2 text-zinc-500">
        {index + 1}
      </div>
      <div role="cell" className="col-span-4 px-3 py-2 text-zinc-500 dark:text-zinc-400">
        {failed ? (
          <span>
            {failed.title}{' '}
            <Button size="sm" onClick={() => part?.loadTurns(from, to, true)}>
              Try again
            </Button>
          </span>
        ) : (
          `Loading turns ${(from + 1).toLocaleString('en-US')}–${to.toLocaleString('en-US')}…`
        )}
      </div>
    </div>
  );
}

function TurnRow({
  index,
  start,
  turn,
  selected,
  selectTurn,
  measure,
}: {
  index: number;
  start: number;
  turn: SummaryInput;
  selected: boolean;
  selectTurn: (turnId: string) => void;
  measure: (el: Element | null) => void;
}) {
  const r = summaryOf(turn);
  const decision = showDecision(r.decision);
  return (
    <div
      ref={measure}
      data-index={index}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${start}px)` }}
      className={cx(
        COLUMNS,
        'border-t border-zinc-100 dark:border-zinc-800',
        selected ? 'bg-indigo-50 dark:bg-indigo-950/40' : 'hover:bg-zinc-50 dark:hover:bg-zinc-800/50',
      )}
    >
      <div role="cell" className="px-3 py-2 text-zinc-500">
        {r.index + 1}
      </div>
      <div role="cell" className="px-3 py-2">
        <button
          type="button"
          onClick={() => selectTurn(r.id)}
          className="text-left break-words hover:underline"
          aria-label={`${r.intent || 'no intent'} (focus turn ${r.index + 1})`}
          title={r.userText}
        >
          {r.intent || <span className="text-zinc-500 italic dark:text-zinc-400">no intent</span>}
        </button>
      </div>
      <div role="cell" className="px-3 py-2">
        {decision ? <Badge tone={decision.tone}>{decision.label}</Badge> : null}
      </div>
      <div role="cell" className="px-3 py-2">
        <div className="flex flex-wrap gap-1">
          {r.ruleCounts.map(([result, n]) => (
            <Badge key={result} tone={resultTone(result)}>
              {n} {result}
            </Badge>
          ))}
        </div>
      </div>
      <div role="cell" className="px-3 py-2 text-xs break-words text-zinc-600 dark:text-zinc-400">
        {bundleLabel(r.bundleHash)}
        {r.versionId ? ` · ${r.versionId}` : ''}
      </div>
    </div>
  );
}

/** "Go to turn N": any turn of a long thread in one step (find-in-page sees only the rows drawn). */
function JumpToTurn({ count, onJump }: { count: number; onJump: (index: number) => void }) {
  const [value, setValue] = useState('');
  const n = Number(value);
  const valid = Number.isInteger(n) && n >= 1 && n <= count;
  return (
    <form
      className="flex items-center gap-2 border-b border-zinc-200 px-3 py-1.5 text-xs dark:border-zinc-800"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onJump(n - 1);
      }}
    >
      <label htmlFor="thread-go-to-turn" className="text-zinc-600 dark:text-zinc-400">
        Go to turn
      </label>
      <input
        id="thread-go-to-turn"
        type="number"
        inputMode="numeric"
        min={1}
        max={count}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder={`1–${count}`}
        aria-invalid={value !== '' && !valid}
        className="w-24 rounded border border-zinc-300 px-1.5 py-0.5 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <Button size="sm" type="submit" disabled={!valid}>
        Go
      </Button>
      <span className="ml-auto text-zinc-500 dark:text-zinc-400">{count} turns</span>
    </form>
  );
}
