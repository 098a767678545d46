/**
 * The transcript of a thread, built from what the server knows (its traces, in thread order,
 * with `input.message` and `response.message` when it records them) merged with what this
 * browser recorded when it sent each message. Pure: no React, no I/O.
 */
import type { TolerantTrace } from '../../contract/trace';
import type { LocalTurn } from '../threads';

export interface Turn {
  /** The interaction id (= the reply's message id). */
  id: string;
  index: number;
  userText: string;
  replyText: string;
  suggestions: string[];
  decision: string;
  trace?: TolerantTrace;
  rttMs?: number;
  createdAt?: string;
  bundleHash?: string | null;
  /** The server does not record the texts and this browser did not send the turn. */
  textUnavailable: boolean;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export function traceUserText(trace: TolerantTrace): string | undefined {
  return str(obj(trace.input)?.message);
}

export function traceReply(trace: TolerantTrace): { text?: string; suggestions?: string[] } {
  const r = obj(trace.response);
  const suggestions = Array.isArray(r?.suggestions)
    ? r.suggestions.map((s) => (typeof s === 'string' ? s : JSON.stringify(s)))
    : undefined;
  return { text: str(r?.message), ...(suggestions ? { suggestions } : {}) };
}

export function buildTranscript(
  traces: readonly TolerantTrace[] | undefined,
  local: readonly LocalTurn[] | undefined,
): Turn[] {
  const localById = new Map((local ?? []).map((t) => [t.id, t]));
  const turns: Turn[] = [];
  const seen = new Set<string>();
  for (const trace of traces ?? []) {
    const id = trace.interaction_id;
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const mine = localById.get(id);
    const reply = traceReply(trace);
    const userText = traceUserText(trace) ?? mine?.user_text;
    const replyText = reply.text ?? mine?.reply_text;
    turns.push({
      id,
      index: turns.length,
      userText: userText ?? '',
      replyText: replyText ?? '',
      suggestions: mine?.suggestions ?? reply.suggestions ?? [],
      decision: trace.decision || mine?.decision || '',
      trace,
      ...(mine?.rtt_ms !== undefined ? { rttMs: mine.rtt_ms } : {}),
      ...(mine?.created_at ? { createdAt: mine.created_at } : {}),
      ...(mine?.bundle_hash !== undefined ? { bundleHash: mine.bundle_hash } : {}),
      textUnavailable: userText === undefined && replyText === undefined,
    });
  }
  // Turns this browser recorded that the server's list does not hold (yet): keep them, in order.
  for (const mine of local ?? []) {
    if (seen.has(mine.id)) continue;
    seen.add(mine.id);
    turns.push({
      id: mine.id,
      index: turns.length,
      userText: mine.user_text,
      replyText: mine.reply_text,
      suggestions: mine.suggestions,
      decision: mine.decision ?? '',
      ...(mine.rtt_ms !== undefined ? { rttMs: mine.rtt_ms } : {}),
      createdAt: mine.created_at,
      ...(mine.bundle_hash !== undefined ? { bundleHash: mine.bundle_hash } : {}),
      textUnavailable: false,
    });
  }
  return turns;
}

/** The last message the user sent in a thread (for ↑ recall in the composer). */
export function lastUserText(turns: readonly Turn[]): string | undefined {
  for (let i = turns.length - 1; i >= 0; i -= 1) {
    const t = turns[i];
    if (t && t.userText) return t.userText;
  }
  return undefined;
}
