import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import { appended, replacedAt } from '../../lib/array-change';
import type { LocalTurn } from '../threads/local-turns';
import { buildTranscript } from './transcript';
import { TranscriptModel, transcriptModelFor } from './transcript-model';
import { pageWindow, wholeWindow, withSentTrace, type TraceWindow } from '../../api/trace-window';

/** The window of a server without paging, the same object for the same list. */
const windows = new WeakMap<readonly TolerantTrace[], TraceWindow>();
function W(items: readonly TolerantTrace[] | undefined): TraceWindow | undefined {
  if (!items) return undefined;
  let w = windows.get(items);
  if (!w) windows.set(items, (w = wholeWindow(items)));
  return w;
}

const trace = (i: number) =>
  TolerantTrace.parse({
    interaction_id: `m${i}`,
    decision: 'proceed',
    input: { message: `question ${i}` },
    response: { message: `answer ${i}` },
    rules_evaluated: [{ rule: 'R', result: 'allowed' }],
  });
const local = (i: number, extra: Partial<LocalTurn> = {}): LocalTurn => ({
  id: `m${i}`,
  user_text: `question ${i}`,
  reply_text: `answer ${i}`,
  suggestions: [],
  created_at: '2026-01-01T00:00:00Z',
  rtt_ms: 20,
  ...extra,
});
const runsOf = (ids: string[]) => [
  ids.map((id) => ({ interaction_id: id, bundle_hash: null, version_id: 'v1' })),
];

/** A thread of `n` turns opened in the model, then one send the way the app records it. */
function sendCost(n: number) {
  const model = new TranscriptModel();
  const traces = Array.from({ length: n }, (_, i) => trace(i));
  const locals = Array.from({ length: Math.min(n, 50) }, (_, i) => local(n - 50 + i));
  const info = runsOf(traces.slice(0, n - 10).map((t) => t.interaction_id));
  model.sync(W(traces), locals, info);
  const before = model.work;
  // The answer: its trace appended to the list, then this browser's record of the turn.
  const traces2 = appended(traces, trace(n));
  model.sync(W(traces2), locals, info);
  const locals2 = appended(locals, local(n, { rtt_ms: 33 }));
  const turns = model.sync(W(traces2), locals2, info);
  return { work: model.work - before, turns, traces: traces2, locals: locals2, info };
}

describe('the transcript model of a thread', () => {
  it("follows a send with the same work whatever the thread's length (counted, not timed)", () => {
    const costs = [500, 1_000, 2_000, 4_000].map((n) => sendCost(n).work);
    // One turn built for the trace, one rebuilt with this browser's record and compared.
    expect(costs).toEqual([3, 3, 3, 3]);
  });

  it('answers what a rebuild from scratch answers, after sends', () => {
    const { turns, traces, locals, info } = sendCost(200);
    const runs = new Map(info[0]!.map((t) => [t.interaction_id, t]));
    expect(turns).toEqual(buildTranscript(traces, locals, runs));
    expect(turns.at(-1)).toMatchObject({ id: 'm200', index: 200, rttMs: 33, userText: 'question 200' });
  });

  it('keeps every other turn as the same object, and the same array when nothing changed', () => {
    const model = new TranscriptModel();
    const traces = [trace(0), trace(1)];
    const first = model.sync(W(traces), [], undefined);
    expect(model.sync(W(traces), [], undefined)).toBe(first);
    const next = model.sync(W(appended(traces, trace(2))), [], undefined);
    expect(next[0]).toBe(first[0]);
    expect(next[1]).toBe(first[1]);
    expect(next).toHaveLength(3);
  });

  it('places a record the trace list does not hold after the traces, then a record replaced in place', () => {
    const model = new TranscriptModel();
    const traces = [trace(0)];
    const none: LocalTurn[] = [];
    model.sync(W(traces), none, undefined);
    const locals = appended(none, local(7));
    const before = model.work;
    expect(model.sync(W(traces), locals, undefined).map((t) => t.id)).toEqual(['m0', 'm7']);
    const locals2 = replacedAt(locals, 0, local(7, { reply_text: 'edited' }));
    const turns = model.sync(W(traces), locals2, undefined);
    expect(model.work - before).toBe(3);
    expect(turns[1]).toMatchObject({ id: 'm7', index: 1, replyText: 'edited' });
    expect(turns).toEqual(buildTranscript(traces, locals2));
  });

  it('rebuilds from scratch on a change it did not see made (a refetch), with the same answer', () => {
    const model = new TranscriptModel();
    const traces = [trace(0), trace(1)];
    model.sync(W(traces), [], undefined);
    // The server's list now holds the turns in another order, and one more.
    const refetched = [trace(1), trace(0), trace(2)];
    expect(model.sync(W(refetched), [], undefined)).toEqual(buildTranscript(refetched, []));
    // A trace appended after a record the list did not hold: the order is the list's, then the rest.
    const locals = appended([], local(9));
    model.sync(W(refetched), locals, undefined);
    const withNine = appended(refetched, trace(9));
    expect(model.sync(W(withNine), locals, undefined)).toEqual(buildTranscript(withNine, locals));
  });

  it('is one model per thread and owner, shared by every panel asking for it', () => {
    const owner = {};
    expect(transcriptModelFor(owner, 't1')).toBe(transcriptModelFor(owner, 't1'));
    expect(transcriptModelFor(owner, 't1')).not.toBe(transcriptModelFor(owner, 't2'));
    expect(transcriptModelFor({}, 't1')).not.toBe(transcriptModelFor(owner, 't1'));
  });

  it('keeps a turn whose trace names it by a number as one turn, keyed by its message id, when sent and after a refetch', () => {
    // A service answering message "m1" with a trace whose interaction_id is the number 7 (and a
    // numeric intent and created_at): the answer, this browser's record, then the list refetched.
    const odd = (extra: Record<string, unknown> = {}) =>
      TolerantTrace.parse({
        interaction_id: 7,
        intent: 42,
        created_at: 1_700_000_000,
        decision: 'proceed',
        response: { message: 'answer 1' },
        ...extra,
      });
    const model = new TranscriptModel();
    const before = [trace(0)];
    model.sync(W(before), [local(0)], undefined);
    const withAnswer = appended(before, odd());
    model.sync(W(withAnswer), [local(0)], undefined);
    const records = appended([local(0)], local(1, { trace_id: '7' }));
    const sent = model.sync(W(withAnswer), records, undefined);
    const later = appended(records, local(2));
    const afterNext = model.sync(W(appended(withAnswer, trace(2))), later, undefined);
    const refetched = model.sync(W([trace(0), odd(), trace(2)]), later, undefined);
    for (const turns of [sent, afterNext, refetched]) {
      expect(turns.map((t) => t.id)).toEqual(['m0', 'm1', 'm2'].slice(0, turns.length));
      expect(turns[1]).toMatchObject({ index: 1, userText: 'question 1', textUnavailable: false });
      expect(turns[1]!.unread?.map((u) => u.path)).toEqual(
        expect.arrayContaining(['trace_info.interaction_id', 'trace_info.intent']),
      );
    }
    expect(refetched).toHaveLength(3);
    expect(refetched[2]).toMatchObject({ id: 'm2', index: 2, replyText: 'answer 2' });
    expect(refetched).toEqual(buildTranscript([trace(0), odd(), trace(2)], later));
  });
});

/** Page `p` (from 1) of a thread of `total` turns in pages of `size`. */
const pageOf = (total: number, size: number, p: number) =>
  Array.from({ length: Math.max(0, Math.min(size, total - (p - 1) * size)) }, (_, i) =>
    trace((p - 1) * size + i),
  );

/** A thread of `n` turns opened on its newest page, then `sends` sends: turns built and copied per send. */
function windowedSendCost(n: number, sends = 3) {
  const model = new TranscriptModel();
  const pages = Math.ceil(n / 500);
  let w = pageWindow(n, 500, pages, pageOf(n, 500, pages));
  const none: never[] = [];
  model.sync(w, none, undefined);
  const [work, copied] = [model.work, model.copied];
  for (let i = 0; i < sends; i += 1) {
    w = withSentTrace(w, trace(n + i));
    model.sync(w, none, undefined);
  }
  return { built: (model.work - work) / sends, copied: (model.copied - copied) / sends, turns: model.turns };
}

describe('what each turn ran with, by pages', () => {
  it('takes the runs of the held pages; a new list of the same pages changes nothing', () => {
    const model = new TranscriptModel();
    const traces = [trace(0), trace(1), trace(2)];
    const none: LocalTurn[] = [];
    const runs = (ids: number[], hash: string | null) =>
      ids.map((i) => ({ interaction_id: `m${i}`, bundle_hash: hash, version_id: 'v1' }));
    const first = runs([0, 1], 'abc');
    const second = runs([2], null);
    const before = model.sync(W(traces), none, [first, undefined]);
    expect(before.map((t) => t.bundleHash)).toEqual(['abc', 'abc', undefined]);
    const after = model.sync(W(traces), none, [first, second]);
    expect(after.map((t) => t.bundleHash)).toEqual(['abc', 'abc', null]);
    const work = model.work;
    expect(model.sync(W(traces), none, [first, second])).toBe(after);
    expect(model.work).toBe(work);
  });
});

describe('a send into a long thread (counted, not timed)', () => {
  it('builds one turn and copies the same number of references whatever the thread’s length', () => {
    const costs = [1_000, 2_000, 4_000, 8_000].map((n) => windowedSendCost(n));
    expect(costs.map((c) => c.built)).toEqual([1, 1, 1, 1]);
    expect(new Set(costs.map((c) => c.copied)).size).toBe(1);
    // Only the newest page is held: the copy is a page, not the thread.
    expect(costs[3]!.copied).toBeLessThanOrEqual(502);
  });

  it('numbers the held turns by their thread position', () => {
    const { turns } = windowedSendCost(8_000, 1);
    expect(turns[0]).toMatchObject({ id: 'm7500', index: 7_500 });
    expect(turns.at(-1)).toMatchObject({ id: 'm8000', index: 8_000 });
  });
});
