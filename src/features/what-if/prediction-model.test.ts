import { describe, expect, it } from 'vitest';
import { PREDICTION_LIMITS } from '../../contract/what-if';
import type { Turn } from '../../domain/transcript/transcript';
import { messageSources, predictionAgreement, predictionQuestion, replayCheck } from './prediction-model';

const turn = (i: number, over: Partial<Turn> = {}): Turn => ({
  id: `t${i}`,
  index: i,
  userText: `message ${i}`,
  replyText: `reply ${i}`,
  suggestions: [],
  decision: 'proceed',
  createdAt: `2026-11-2${i % 10}T10:00:00.000Z`,
  textUnavailable: false,
  ...over,
});
const facts = { taskId: 'task', agentId: 'card-disputes', bundleHash: 'h', userId: 'u' };

describe('the question of a predicted turn', () => {
  it('the earlier messages in order, the turn, and the reply’s time as the clock', () => {
    const turns = [turn(0), turn(1), turn(2), turn(3)];
    expect(predictionQuestion(turns, 't2', facts)).toEqual({
      question: {
        ...facts,
        clock: '2026-11-22T10:00:00.000Z',
        earlier: [
          { interactionId: 't0', text: 'message 0' },
          { interactionId: 't1', text: 'message 1' },
        ],
        turn: { interactionId: 't2', text: 'message 2' },
      },
    });
  });

  it('refuses, saying why: too many earlier turns, a message not known, no time', () => {
    const many = Array.from({ length: PREDICTION_LIMITS.earlierTurns + 2 }, (_, i) => turn(i));
    expect(predictionQuestion(many, `t${PREDICTION_LIMITS.earlierTurns}`, facts)).toHaveProperty('question');
    expect(predictionQuestion(many, `t${PREDICTION_LIMITS.earlierTurns + 1}`, facts)).toEqual({
      cannot: expect.stringContaining(`at most ${PREDICTION_LIMITS.earlierTurns} are replayed`),
    });
    expect(
      predictionQuestion([turn(0), turn(1, { textUnavailable: true, userText: '' }), turn(2)], 't2', facts),
    ).toEqual({ cannot: expect.stringContaining('The message of turn 2 is not known') });
    const { createdAt: _gone, ...timeless } = turn(0);
    expect(predictionQuestion([timeless], 't0', facts)).toEqual({
      cannot: expect.stringContaining('time of this turn’s reply is not known'),
    });
    expect(predictionQuestion([turn(0)], 'elsewhere', facts)).toHaveProperty('cannot');
  });
});

describe('the engine’s decision against the deployed service’s', () => {
  it('same, differs, or nothing to compare with', () => {
    expect(predictionAgreement('proceed', 'proceed')).toBe('same');
    expect(predictionAgreement('block_with_explanation', 'proceed')).toBe('differs');
    expect(predictionAgreement('proceed', '')).toBe('deployed-unknown');
  });
});

describe('the replay of the earlier turns against what the deployed service decided', () => {
  it('names each turn the replay decided otherwise, and each it could not check', () => {
    const turns = [turn(0), turn(1, { decision: 'request_information' }), turn(2, { decision: '' }), turn(3)];
    expect(replayCheck(turns, ['proceed', 'proceed', 'proceed'])).toEqual({
      mismatches: [{ turn: 2, deployed: 'request_information', replayed: 'proceed' }],
      unchecked: [3],
    });
    expect(replayCheck(turns, [])).toEqual({ mismatches: [], unchecked: [] });
  });
});

describe('where the replayed messages were read', () => {
  it('the service’s trace when it records the message, else this browser’s record', () => {
    const recorded = { input: { message: 'message 0' } } as unknown as Turn['trace'];
    const turns = [
      turn(0, { trace: recorded }),
      turn(1),
      turn(2, { trace: {} as unknown as Turn['trace'] }),
      turn(3),
    ];
    expect(messageSources(turns, 't2')).toEqual({ fromService: 1, fromBrowser: 2 });
  });
});
