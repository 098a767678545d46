/**
 * A matching turn as a row: its message (and, when the words searched for were in its reply only,
 * the reply around them), decision, deciding rule, agent, turn and time; it opens its thread at
 * that turn.
 */
import type { TurnHitIn } from '../../api/turn-search';
import { formatRelative } from '../../lib/format';
import { DecisionBadge } from '../../components/DecisionBadge';
import { replyExcerpt } from './reply-excerpt';

export const hitKey = (h: TurnHitIn) => `${h.task_id}/${h.interaction_id}`;

export function Hit({
  hit,
  words = [],
  openTurn,
  selected,
  onSelect,
}: {
  hit: TurnHitIn;
  /** The words searched for, if any. */
  words?: readonly string[];
  openTurn: (taskId: string, interactionId: string) => void;
  /** Whether the turn is selected; absent when results cannot be selected. */
  selected?: boolean | undefined;
  onSelect?: (on: boolean) => void;
}) {
  const inReply = replyExcerpt(hit.message, hit.reply, words);
  return (
    <li className="flex items-start gap-1 py-2">
      {selected === undefined ? null : (
        <input
          type="checkbox"
          className="mt-2 h-4 w-4 shrink-0 accent-indigo-600"
          checked={selected}
          onChange={(e) => onSelect?.(e.target.checked)}
          aria-label={`Select: ${hitLabel(hit)}`}
        />
      )}
      <button
        type="button"
        className="flex w-full flex-col gap-1 rounded-md px-2 py-1 text-left hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800"
        onClick={() => openTurn(hit.task_id, hit.interaction_id)}
      >
        <span className="line-clamp-2 text-sm">{hit.message || '(no message text)'}</span>
        {inReply === null ? null : (
          <span className="line-clamp-2 text-xs text-zinc-600 dark:text-zinc-400">
            <span className="font-medium">In the reply:</span> {inReply}
          </span>
        )}
        <span className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
          <DecisionBadge decision={hit.decision} />
          {hit.deciding_rule ? <span>by {hit.deciding_rule}</span> : null}
          <span>{hit.agent_id}</span>
          <span>turn {hit.turn}</span>
          <time dateTime={hit.created_at} title={hit.created_at}>
            {formatRelative(hit.created_at)}
          </time>
        </span>
      </button>
    </li>
  );
}

/** A result in words, for its checkbox and for what is said about it. */
export function hitLabel(hit: TurnHitIn): string {
  const message = hit.message.length > 60 ? `${hit.message.slice(0, 59)}…` : hit.message;
  return `turn ${hit.turn} of ${hit.agent_id}, “${message || 'no message text'}”`;
}
