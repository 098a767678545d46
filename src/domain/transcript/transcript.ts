/**
 * The transcript of a thread, built from what the server knows (its traces, in thread order,
 * with `input.message` and `response.message` when it records them, and what each turn ran with
 * when it keeps that) merged with what this browser recorded when it sent each message. Pure:
 * no React, no I/O.
 */
import type { UnreadField } from '../../contract/tolerant';
import type { TolerantTrace } from '../../contract/trace';
import type { LocalTurn } from '../threads/local-turns';

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
  /** The local bundle's hash the turn ran with; null = the agent's own; absent = not recorded. */
  bundleHash?: string | null;
  /** The version the turn ran with, when recorded. */
  versionId?: string;
  /** The server does not record the texts and this browser did not send the turn. */
  textUnavailable: boolean;
  /**
   * Fields of the reply (paths as sent) and of the trace (under `trace_info.`) that arrived in
   * another shape; a path of `trace_info` alone means the whole trace item could not be read.
   */
  unread?: UnreadField[];
  /** The server's trace names no interaction id: `id` is a stand-in, unknown to the server. */
  idUnknown?: boolean;
}

/** The id this browser gives a message until the service answers with the real one. */
const LOCAL_ID_PREFIX = 'local-';

export function newLocalMessageId(now: number, counter: number): string {
  return `${LOCAL_ID_PREFIX}${now.toString(36)}-${counter}`;
}

/** Whether an id is one of this browser's stand-ins: unknown to the service, so not shared, rerun or saved. */
export function isLocalMessageId(id: string): boolean {
  return id.startsWith(LOCAL_ID_PREFIX);
}

/** The marks of a turn: its reply's (recorded when sent) then its trace's, under `trace_info`. */
function unreadOf(trace: TolerantTrace | undefined, mine: LocalTurn | undefined): UnreadField[] {
  const out: UnreadField[] = [...(mine?.unread ?? [])];
  for (const u of trace?._unread ?? [])
    out.push({ path: u.path ? `trace_info.${u.path}` : 'trace_info', raw: u.raw });
  return out;
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

function traceReply(trace: TolerantTrace): { text?: string; suggestions?: string[] } {
  const r = obj(trace.response);
  const suggestions = Array.isArray(r?.suggestions)
    ? r.suggestions.map((s) => (typeof s === 'string' ? s : JSON.stringify(s)))
    : undefined;
  return { text: str(r?.message), ...(suggestions ? { suggestions } : {}) };
}

/** What one turn ran with, as the server keeps it. */
export interface TurnRun {
  bundle_hash: string | null;
  version_id: string | null;
}

/** The server's record wins over this browser's: it is what ran. */
function runOf(
  run: TurnRun | undefined,
  mine: LocalTurn | undefined,
): Pick<Turn, 'bundleHash' | 'versionId'> {
  const hash = run ? run.bundle_hash : mine?.bundle_hash;
  const version = run?.version_id ?? mine?.version_id;
  return { ...(hash !== undefined ? { bundleHash: hash } : {}), ...(version ? { versionId: version } : {}) };
}

/**
 * This browser's records by the id a trace names them with: the message id each was answered
 * with, and the trace's own interaction id when the answer's trace carried another one.
 */
function localByTraceId(local: readonly LocalTurn[] | undefined): Map<string, LocalTurn> {
  const out = new Map<string, LocalTurn>();
  for (const t of local ?? []) {
    out.set(t.id, t);
    if (t.trace_id && !out.has(t.trace_id)) out.set(t.trace_id, t);
  }
  return out;
}

/**
 * The turn of one server trace at `index`, with this browser's record of it and what it ran with.
 * A turn this browser sent is keyed by the message id it was answered with (what the app can
 * trust), whatever the trace's own id says; the trace's id marks the turn, never splits it.
 */
export function turnFromTrace(
  trace: TolerantTrace,
  index: number,
  mine: LocalTurn | undefined,
  run: TurnRun | undefined,
): Turn {
  const idUnknown = !trace.interaction_id && !mine;
  // A trace without an id still has its place in the thread; it gets a stand-in id.
  const id = mine?.id || trace.interaction_id || standInId(index);
  const unread = unreadOf(trace, mine);
  const reply = traceReply(trace);
  const userText = traceUserText(trace) ?? mine?.user_text;
  const replyText = reply.text ?? mine?.reply_text;
  return {
    id,
    index,
    userText: userText ?? '',
    replyText: replyText ?? '',
    suggestions: mine?.suggestions ?? reply.suggestions ?? [],
    decision: trace.decision || mine?.decision || '',
    trace,
    ...(mine?.rtt_ms !== undefined ? { rttMs: mine.rtt_ms } : {}),
    ...(mine?.created_at ? { createdAt: mine.created_at } : {}),
    ...runOf(run, mine),
    textUnavailable: userText === undefined && replyText === undefined,
    ...(unread.length ? { unread } : {}),
    ...(idUnknown ? { idUnknown } : {}),
  };
}

/** The id a trace without an interaction id gets at position `index`. */
const standInId = (index: number) => `unidentified-trace-${index + 1}`;

/**
 * Which part of the thread the traces are: the thread position of the first, and whether they
 * reach its end (only then do this browser's records of turns not listed yet follow them).
 */
export interface TranscriptPart {
  start: number;
  atEnd: boolean;
}

const WHOLE: TranscriptPart = { start: 0, atEnd: true };

/** A turn this browser recorded that the server's trace list does not hold (yet). */
export function turnFromLocal(mine: LocalTurn, index: number, run: TurnRun | undefined): Turn {
  return {
    id: mine.id,
    index,
    userText: mine.user_text,
    replyText: mine.reply_text,
    suggestions: mine.suggestions,
    decision: mine.decision ?? '',
    ...(mine.rtt_ms !== undefined ? { rttMs: mine.rtt_ms } : {}),
    createdAt: mine.created_at,
    ...runOf(run, mine),
    textUnavailable: false,
    ...(mine.unread?.length ? { unread: mine.unread } : {}),
  };
}

/**
 * The whole transcript at once: the traces in thread order (a repeated id counted once), then the
 * turns this browser recorded that the list does not hold, in their order. Linear; the per-thread
 * model (transcript-model.ts) calls it only when a change is not one it can follow turn by turn.
 */
export function buildTranscript(
  traces: readonly TolerantTrace[] | undefined,
  local: readonly LocalTurn[] | undefined,
  runs?: ReadonlyMap<string, TurnRun>,
  part: TranscriptPart = WHOLE,
): Turn[] {
  const byTraceId = localByTraceId(local);
  const turns: Turn[] = [];
  const seen = new Set<string>();
  // The position in `local` of the newest record a held trace names.
  let lastMatched = -1;
  const localAt = part.start > 0 ? new Map((local ?? []).map((t, i) => [t.id, i])) : undefined;
  for (const trace of traces ?? []) {
    const mine = trace.interaction_id ? byTraceId.get(trace.interaction_id) : undefined;
    const index = part.start + turns.length;
    const id = mine?.id || trace.interaction_id || standInId(index);
    if (seen.has(id)) continue;
    seen.add(id);
    if (mine && localAt) lastMatched = Math.max(lastMatched, localAt.get(mine.id) ?? -1);
    turns.push(turnFromTrace(trace, index, mine, runs?.get(id)));
  }
  if (!part.atEnd) return turns;
  // This browser's records no held trace names: turns the service has not listed (yet). When
  // older traces are not held, only records newer than the newest one named here can be such.
  if (part.start > 0 && lastMatched === -1) return turns;
  for (const [i, mine] of (local ?? []).entries()) {
    if (seen.has(mine.id) || (part.start > 0 && i <= lastMatched)) continue;
    seen.add(mine.id);
    turns.push(turnFromLocal(mine, part.start + turns.length, runs?.get(mine.id)));
  }
  return turns;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Arrays rebuilt from the same items (suggestions, marks) count as the same.
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((x, i) => sameValue(x, b[i]) || (isPlain(x) && isPlain(b[i]) && sameFields(x, b[i])));
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => sameValue(a[k], b[k]));
}

/**
 * The new transcript, keeping the previous `Turn` object wherever nothing shown changed, so
 * memoised turn views skip re-rendering (a 1 MB reply is not drawn again because another turn
 * arrived). Linear in the number of turns; fields compared by identity (arrays item by item).
 */
/** The two turns show the same (fields compared by identity, arrays item by item). */
export const sameTurn = (a: Turn, b: Turn): boolean =>
  sameFields(a as unknown as Record<string, unknown>, b as unknown as Record<string, unknown>);

export function reuseTurns(previous: readonly Turn[], next: Turn[]): Turn[] {
  if (previous.length === 0) return next;
  const byId = new Map(previous.map((t) => [t.id, t]));
  let changed = previous.length !== next.length;
  const out = next.map((t, i) => {
    const old = byId.get(t.id);
    const keep = old !== undefined && sameTurn(old, t);
    if (!keep || previous[i] !== old) changed = true;
    return keep ? old : t;
  });
  return changed ? out : (previous as Turn[]);
}

/** The last message the user sent in a thread (for ↑ recall in the composer). */
export function lastUserText(turns: readonly Turn[]): string | undefined {
  for (let i = turns.length - 1; i >= 0; i -= 1) {
    const t = turns[i];
    if (t && t.userText) return t.userText;
  }
  return undefined;
}
