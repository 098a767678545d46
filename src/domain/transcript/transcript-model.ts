/**
 * One thread's transcript, kept up to date from its three sources (the server's trace list, this
 * browser's records, what each turn ran with) and shared by every panel showing the thread. A
 * send changes the sources by one item (`appended` / `replacedAt` from lib/array-change), and the
 * model follows such a change by building that one turn: its cost does not grow with the
 * thread. Any other change (a refetch, a page loaded or dropped, a new connection) rebuilds the
 * transcript of the traces held (a bounded window, trace-window.ts), keeping the previous `Turn`
 * objects where nothing changed. `turns` are the held turns, each with its thread position as
 * `index`. Pure: no React, no I/O.
 */
import { changeOf } from '../../lib/array-change';
import type { LocalTurn } from '../threads/local-turns';
import {
  buildTranscript,
  reuseTurns,
  sameTurn,
  turnFromLocal,
  turnFromTrace,
  type Turn,
  type TurnRun,
} from './transcript';
import { windowEnd, type TraceWindow } from '../../api/trace-window';

/**
 * What the server keeps about what each turn ran with, as pages of the reference service's turn
 * runs (those of the held pages of traces); a page is undefined until it is in, null when the
 * server keeps none. A new list with the same pages in it counts as the same.
 */
export type RunPages = ReadonlyArray<ReadonlyArray<TurnRun & { interaction_id: string }> | null | undefined>;

type Traces = TraceWindow | undefined;
type Locals = readonly LocalTurn[] | undefined;
const NO_RUNS: RunPages = [];

function samePages(a: RunPages, b: RunPages): boolean {
  return a === b || (a.length === b.length && a.every((page, i) => page === b[i]));
}

export class TranscriptModel {
  turns: readonly Turn[] = [];
  /** Turns built or compared so far: what keeping the transcript has cost (tests read it). */
  work = 0;
  /** Turn references copied so far into new transcripts (tests read it). */
  copied = 0;
  private synced = false;
  private traces: Traces;
  private local: Locals;
  private runPages: RunPages = NO_RUNS;
  private runs: Map<string, TurnRun> | undefined;
  private localById = new Map<string, LocalTurn>();
  /** Trace ids that name a record of another id (LocalTurn.trace_id). */
  private tracedAs = new Set<string>();
  /** Turn id → its position in `turns`. */
  private at = new Map<string, number>();
  /** `turns[0 … fromTraces)` come from the trace list, the rest from this browser's records only. */
  private fromTraces = 0;

  /** The transcript for these sources (the same array as long as they are the same). */
  sync(traces: Traces, local: Locals, runPages: RunPages = NO_RUNS): readonly Turn[] {
    const sameRuns = this.synced && samePages(runPages, this.runPages);
    if (sameRuns && traces === this.traces && local === this.local) return this.turns;
    if (!(sameRuns && this.follow(traces, local))) this.rebuild(traces, local, runPages, sameRuns);
    this.synced = true;
    this.traces = traces;
    this.local = local;
    if (!sameRuns) this.runPages = runPages;
    return this.turns;
  }

  /** Follows one appended trace and/or one appended or replaced record; false when it cannot. */
  private follow(traces: Traces, local: Locals): boolean {
    const before = this.traces;
    // The held run moved or the connection changed: rebuilt.
    if (!traces || !before || traces.start !== before.start || traces.pageSize !== before.pageSize)
      return false;
    const items = traces.items === before.items ? undefined : traces.items;
    const traceChange = items ? changeOf(items) : undefined;
    if (items) {
      const id = traceChange?.item.interaction_id;
      if (
        traceChange?.kind !== 'append' ||
        traceChange.base !== before.items ||
        !id ||
        this.at.has(id) ||
        this.tracedAs.has(id) ||
        this.fromTraces !== this.turns.length
      )
        return false;
    }
    // Whether the held run reaches the thread's end (else no turn after it is shown).
    const atEnd = windowEnd(traces) >= traces.total;
    const localChange = local === this.local ? undefined : changeOf(local ?? []);
    if (local !== this.local) {
      if (!localChange || localChange.base !== this.local) return false;
      const { item } = localChange;
      if (
        (localChange.kind === 'append'
          ? this.localById.has(item.id)
          : this.local?.[localChange.index]?.id !== item.id) ||
        // A trace that names this turn by another id: the turn is re-keyed by a rebuild.
        item.trace_id
      )
        return false;
    }
    if (!traceChange && !localChange) return true;
    const next = this.turns.slice();
    this.copied += next.length;
    const start = traces.start;
    if (traceChange) {
      const trace = traceChange.item;
      const id = trace.interaction_id;
      next.push(
        this.build(turnFromTrace(trace, start + next.length, this.localById.get(id), this.runs?.get(id))),
      );
      this.at.set(id, next.length - 1);
      this.fromTraces = next.length;
    }
    if (localChange) {
      const mine = localChange.item;
      this.localById.set(mine.id, mine);
      const i = this.at.get(mine.id);
      if (i === undefined) {
        // A turn the service has not listed: shown after the held run only when it ends the thread.
        if (atEnd) {
          next.push(this.build(turnFromLocal(mine, start + next.length, this.runs?.get(mine.id))));
          this.at.set(mine.id, next.length - 1);
        }
      } else {
        const old = next[i]!;
        const fresh = this.build(
          old.trace
            ? turnFromTrace(old.trace, start + i, mine, this.runs?.get(old.id))
            : turnFromLocal(mine, start + i, this.runs?.get(mine.id)),
        );
        this.work += 1;
        if (!sameTurn(old, fresh)) next[i] = fresh;
      }
    }
    this.turns = next;
    return true;
  }

  private build(turn: Turn): Turn {
    this.work += 1;
    return turn;
  }

  private rebuild(traces: Traces, local: Locals, runPages: RunPages, sameRuns: boolean): void {
    if (!sameRuns) {
      const held = runPages.flatMap((page) => page ?? []);
      this.runs = held.length ? new Map(held.map((t) => [t.interaction_id, t])) : undefined;
    }
    this.localById = new Map((local ?? []).map((t) => [t.id, t]));
    this.tracedAs = new Set((local ?? []).flatMap((t) => (t.trace_id ? [t.trace_id] : [])));
    const built = buildTranscript(traces?.items, local, this.runs, {
      start: traces?.start ?? 0,
      atEnd: !traces || windowEnd(traces) >= traces.total,
    });
    this.work += built.length + (this.turns.length ? built.length : 0);
    this.copied += built.length;
    this.turns = reuseTurns(this.turns, built);
    this.at = new Map(this.turns.map((t, i) => [t.id, i]));
    const firstLocalOnly = this.turns.findIndex((t) => !t.trace);
    this.fromTraces = firstLocalOnly === -1 ? this.turns.length : firstLocalOnly;
  }
}

/** Models kept per owner (the query client), the most recently used threads first out last. */
const MAX_MODELS = 16;
const models = new WeakMap<object, Map<string, TranscriptModel>>();

/** The one model of a thread for this owner (created on first use; the least recently used beyond 16 dropped). */
export function transcriptModelFor(owner: object, taskId: string): TranscriptModel {
  let byTask = models.get(owner);
  if (!byTask) models.set(owner, (byTask = new Map()));
  let model = byTask.get(taskId);
  if (model) byTask.delete(taskId);
  else model = new TranscriptModel();
  byTask.set(taskId, model);
  if (byTask.size > MAX_MODELS) byTask.delete(byTask.keys().next().value!);
  return model;
}
