/**
 * An answer recorded as the thread's local turn: what was sent, what came back, the round trip,
 * and what the turn ran with. A sent message and a rerun's regenerated turn are recorded here, the
 * same way.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { MessageIn } from '../../contract/api';
import { recordLocalTurn, type LocalTurn } from '../threads/local-turns';

export interface Answer {
  /** The text the user sent (or replayed). */
  userText: string;
  message: MessageIn;
  rttMs: number;
  /** The hash of the bundle the turn ran with (null = the agent's own); left out when unknown. */
  bundleHash?: string | null | undefined;
}

/** The local record of an answer (pure). */
export function localTurnOf(
  { userText, message, rttMs, bundleHash }: Answer,
  now: Date = new Date(),
): LocalTurn {
  const trace = message.trace_info ?? undefined;
  return {
    id: message.id,
    user_text: userText,
    reply_text: message.text,
    suggestions: message.followup_suggestions,
    ...(trace?.decision ? { decision: trace.decision } : {}),
    created_at: message.created_at ?? now.toISOString(),
    rtt_ms: rttMs,
    ...(bundleHash !== undefined ? { bundle_hash: bundleHash } : {}),
    ...(message.version_id ? { version_id: message.version_id } : {}),
    ...(message._unread ? { unread: message._unread } : {}),
    ...(trace?.interaction_id && trace.interaction_id !== message.id
      ? { trace_id: trace.interaction_id }
      : {}),
  };
}

/** Records an answer as the thread's local turn (the cached copy first, then this browser's storage). */
export function recordAnswer(queryClient: QueryClient, taskId: string, answer: Answer): Promise<void> {
  return recordLocalTurn(queryClient, taskId, localTurnOf(answer));
}
