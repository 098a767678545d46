import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import type { LocalTurn } from '../threads/local-turns';
import { buildTranscript, lastUserText, reuseTurns } from './transcript';

const trace = (raw: Record<string, unknown>) => TolerantTrace.parse(raw);

const local = (id: string, extra: Partial<LocalTurn> = {}): LocalTurn => ({
  id,
  user_text: `u-${id}`,
  reply_text: `r-${id}`,
  suggestions: [`s-${id}`],
  created_at: '2025-01-01T00:00:00Z',
  rtt_ms: 42,
  ...extra,
});

describe('buildTranscript', () => {
  it('takes texts from rich traces when the browser has nothing (fresh browser)', () => {
    const turns = buildTranscript(
      [
        trace({
          interaction_id: 'm1',
          decision: 'proceed',
          input: { message: 'hi' },
          response: { message: 'hello', suggestions: ['more'] },
        }),
      ],
      [],
    );
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      id: 'm1',
      userText: 'hi',
      replyText: 'hello',
      suggestions: ['more'],
      decision: 'proceed',
      textUnavailable: false,
    });
  });

  it('fills texts from the local cache when traces lack them, and keeps the measured time', () => {
    const turns = buildTranscript(
      [trace({ interaction_id: 'm1', decision: 'block_with_explanation' })],
      [local('m1')],
    );
    expect(turns[0]).toMatchObject({
      userText: 'u-m1',
      replyText: 'r-m1',
      rttMs: 42,
      decision: 'block_with_explanation',
    });
  });

  it('marks turns whose texts nobody knows', () => {
    const turns = buildTranscript([trace({ interaction_id: 'm1' })], []);
    expect(turns[0]?.textUnavailable).toBe(true);
  });

  it('keeps server order and appends local turns the server does not list yet', () => {
    const turns = buildTranscript(
      [trace({ interaction_id: 'b' }), trace({ interaction_id: 'a' })],
      [local('a'), local('c')],
    );
    expect(turns.map((t) => [t.id, t.index])).toEqual([
      ['b', 0],
      ['a', 1],
      ['c', 2],
    ]);
  });

  it('keeps a trace without id in its place (a stand-in id, marked unknown) and skips duplicates', () => {
    const turns = buildTranscript(
      [trace({}), trace({ interaction_id: 'x' }), trace({ interaction_id: 'x' })],
      undefined,
    );
    expect(turns.map((t) => [t.id, Boolean(t.idUnknown)])).toEqual([
      ['unidentified-trace-1', true],
      ['x', false],
    ]);
  });

  it('recalls the last user message', () => {
    expect(lastUserText(buildTranscript(undefined, [local('a'), local('b')]))).toBe('u-b');
    expect(lastUserText([])).toBeUndefined();
  });
});

describe('tolerant transcripts', () => {
  it('a trace list item that is not a trace keeps its place, marked, with its raw value', async () => {
    const { TraceListIn } = await import('../../contract/api');
    const list = TraceListIn.parse([
      { interaction_id: 'm1', decision: 'proceed' },
      'garbage',
      { interaction_id: 'm3' },
    ]);
    const turns = buildTranscript(list.items, []);
    expect(turns.map((t) => t.index)).toEqual([0, 1, 2]);
    expect(turns[0]?.unread).toBeUndefined();
    expect(turns[1]).toMatchObject({ idUnknown: true, unread: [{ path: 'trace_info', raw: 'garbage' }] });
    expect(turns[2]?.id).toBe('m3');
  });

  it("the reply's own marks (recorded when sent) and the trace's marks both reach the turn", () => {
    const turns = buildTranscript(
      [trace({ interaction_id: 'm1', intent: 7 })],
      [local('m1', { unread: [{ path: 'created_at', raw: 1 }] })],
    );
    expect(turns[0]?.unread).toEqual([
      { path: 'created_at', raw: 1 },
      { path: 'trace_info.intent', raw: 7 },
    ]);
  });
});

describe('reuseTurns', () => {
  const traces = [trace({ interaction_id: 'm1', decision: 'proceed' }), trace({ interaction_id: 'm2' })];
  const mine = [local('m1'), local('m2')];

  it('keeps the previous Turn objects when a new turn arrives, and only the new one is new', () => {
    const before = buildTranscript(traces, mine);
    const after = reuseTurns(
      before,
      buildTranscript([...traces, trace({ interaction_id: 'm3' })], [...mine, local('m3')]),
    );
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(after).toHaveLength(3);
  });

  it('answers the same array when nothing changed, and a new object for a changed turn', () => {
    const before = buildTranscript(traces, mine);
    expect(reuseTurns(before, buildTranscript(traces, mine))).toBe(before);
    const changed = reuseTurns(
      before,
      buildTranscript(traces, [local('m1', { reply_text: 'new' }), mine[1]!]),
    );
    expect(changed[0]).not.toBe(before[0]);
    expect(changed[0]?.replyText).toBe('new');
    expect(changed[1]).toBe(before[1]);
  });
});
