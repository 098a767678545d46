import { memo, type ReactNode } from 'react';
import { Badge } from '../../components/ui/Badge';
import { cx, formatMs, plural } from '../../lib/format';
import { brokenRules } from '../../lib/trace-tones';
import { DecisionBadge, DecisionCauseText } from '../../components/DecisionBadge';
import { ReplyText } from './ReplyText';
import type { Turn } from '../../domain/transcript/transcript';
import { UnreadFields } from './UnreadFields';

export function UserBubble({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <div className="flex justify-end">
      <div className="max-w-[85%] rounded-2xl rounded-br-sm bg-indigo-600 px-3 py-2 text-sm wrap-anywhere whitespace-pre-wrap text-white">
        {text}
        {children}
      </div>
    </div>
  );
}

export function Chips({
  items,
  onPick,
  label,
  disabled,
}: {
  items: string[];
  onPick: (s: string) => void;
  label: string;
  disabled?: boolean;
}) {
  if (items.length === 0) return null;
  return (
    <ul aria-label={label} className="mt-2 flex flex-wrap gap-1.5">
      {items.map((s, i) => (
        <li key={`${i}:${s}`}>
          <button
            type="button"
            disabled={disabled}
            onClick={() => onPick(s)}
            className="rounded-full border border-indigo-200 bg-indigo-50 px-2.5 py-1 text-xs text-indigo-800 hover:bg-indigo-100 disabled:opacity-50 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-200 dark:hover:bg-indigo-900"
          >
            {s}
          </button>
        </li>
      ))}
    </ul>
  );
}

export interface TurnViewProps {
  turn: Turn;
  selected: boolean;
  isLast: boolean;
  /** A message is on its way (only the last turn's suggestions care). */
  busy: boolean;
  onSelect: (turnId: string) => void;
  onSuggestion: (text: string) => void;
  /** Per-turn actions (e.g. "Rerun from here", a bundle badge); a stable function keeps turns memoised. */
  renderActions?: ((turn: Turn) => ReactNode) | undefined;
}

/**
 * One exchange: the user's message, the agent's reply, its decision, time and follow-ups.
 * Memoised: with stable props (see `reuseTurns`) selecting another turn redraws only the two
 * turns whose selection changed, whatever the size of the others' replies.
 */
export const TurnView = memo(function TurnView({
  turn,
  selected,
  isLast,
  busy,
  onSelect,
  onSuggestion,
  renderActions,
}: TurnViewProps) {
  // An item of the trace list that is not a trace at all (its raw value is in `turn.unread`).
  const traceUnreadable = turn.trace?._unread?.some((u) => u.path === '') ?? false;
  const broken = brokenRules(turn.trace?.rules_evaluated);
  return (
    <article
      aria-label={`Turn ${turn.index + 1}`}
      data-turn-id={turn.id}
      className="flex flex-col gap-2 px-4 py-2"
    >
      {turn.userText ? <UserBubble text={turn.userText} /> : null}
      <div
        className={cx(
          'max-w-[92%] rounded-2xl rounded-bl-sm border px-3 py-2 text-sm wrap-anywhere',
          selected
            ? 'border-indigo-400 bg-indigo-50/50 ring-1 ring-indigo-400 dark:border-indigo-500 dark:bg-indigo-950/30'
            : 'border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900',
        )}
      >
        {traceUnreadable ? (
          <p className="text-amber-800 italic dark:text-amber-200">
            The service sent this item of the thread’s trace list in a shape that is not a trace; what it sent
            is below.
          </p>
        ) : null}
        {!turn.textUnavailable ? (
          <ReplyText text={turn.replyText} />
        ) : traceUnreadable ? null : (
          <p className="text-zinc-500 italic">
            This server does not record message texts; the trace is in the inspector.
          </p>
        )}
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
          <DecisionBadge decision={turn.decision} />
          <DecisionCauseText trace={turn.trace} />
          {broken.length > 0 ? (
            <Badge tone="error" title={`Could not be evaluated: ${broken.join(', ')}`}>
              {broken.length === 1 ? 'rule error' : plural(broken.length, 'rule error')}
            </Badge>
          ) : null}
          {turn.rttMs !== undefined ? <span title="Measured round trip">{formatMs(turn.rttMs)}</span> : null}
          <button
            type="button"
            aria-pressed={selected}
            aria-label={`Show trace of turn ${turn.index + 1}`}
            onClick={() => onSelect(turn.id)}
            className="rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
          >
            Trace
          </button>
          {renderActions?.(turn)}
        </div>
        {turn.unread ? <UnreadFields fields={turn.unread} /> : null}
        {isLast ? (
          <Chips
            items={turn.suggestions}
            onPick={onSuggestion}
            label="Follow-up suggestions"
            disabled={busy}
          />
        ) : null}
      </div>
    </article>
  );
});
