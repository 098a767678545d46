import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import type { LocalTurn } from '../threads';
import { buildTranscript, lastUserText } from './transcript';

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

  it('skips traces without id and duplicates', () => {
    const turns = buildTranscript(
      [trace({}), trace({ interaction_id: 'x' }), trace({ interaction_id: 'x' })],
      undefined,
    );
    expect(turns.map((t) => t.id)).toEqual(['x']);
  });

  it('recalls the last user message', () => {
    expect(lastUserText(buildTranscript(undefined, [local('a'), local('b')]))).toBe('u-b');
    expect(lastUserText([])).toBeUndefined();
  });
});
