import { describe, expect, it } from 'vitest';
import { exampleBundle } from '../server/agents/converse';
import { conversationSources, recordConversation } from './fixtures/conversations.fixture';
import { REPLAY_LIMITS, replayThread, ReplayRefused, type ThreadMessage } from './replay-thread';

const messagesOf = (texts: readonly string[]): ThreadMessage[] =>
  texts.map((text, i) => ({ interactionId: `msg-${i + 1}`, text }));

describe('replaying a thread gives the turn the engine runs in the conversation, byte for byte', () => {
  const sources = conversationSources().filter((s) => s.messages.length > 0);
  it('covers every example agent and fixture conversation', () => {
    expect(sources.length).toBeGreaterThan(20);
  });
  for (const source of sources)
    it(source.name, () => {
      const recorded = recordConversation(source);
      const messages = messagesOf(source.messages);
      const last = recorded.length - 1;
      const replay = replayThread({
        bundle: source.bundle,
        clock: source.clock,
        userId: 'user-1',
        earlier: messages.slice(0, last),
        turn: messages[last]!,
      });
      expect(replay.replayed).toBe(last);
      expect(replay.earlierDecisions).toEqual(recorded.slice(0, last).map((r) => r.output.trace.decision));
      expect(JSON.stringify(replay.stateBefore)).toBe(JSON.stringify(recorded[last]!.stateBefore));
      expect(JSON.stringify(replay.turn)).toBe(JSON.stringify(recorded[last]!.output));
    });
});

describe('what the replay refuses, in words', () => {
  const bundle = exampleBundle('card-disputes');
  const clock = '2025-03-15T12:00:00.000Z';

  it('more earlier turns than the cap: refused, not replayed in part', () => {
    const earlier = messagesOf(Array.from({ length: REPLAY_LIMITS.earlierTurns + 1 }, () => 'hello'));
    const turn = { interactionId: 'last', text: 'show me my recent transactions' };
    expect(() => replayThread({ bundle, clock, userId: 'u', earlier, turn })).toThrow(ReplayRefused);
    expect(() => replayThread({ bundle, clock, userId: 'u', earlier, turn })).toThrow(
      `at most ${REPLAY_LIMITS.earlierTurns} are replayed`,
    );
    // At the cap itself the thread is replayed.
    const atCap = replayThread({ bundle, clock, userId: 'u', earlier: earlier.slice(1), turn });
    expect(atCap.replayed).toBe(REPLAY_LIMITS.earlierTurns);
  });

  it('an earlier message whose text is not known: refused, naming the turn', () => {
    const earlier = [
      { interactionId: 'a', text: 'hello' },
      { interactionId: 'b', text: '' },
    ];
    expect(() =>
      replayThread({ bundle, clock, userId: 'u', earlier, turn: { interactionId: 'c', text: 'hi' } }),
    ).toThrow('The text of turn 2 is not known');
  });
});
