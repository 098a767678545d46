import { describe, expect, it } from 'vitest';
import { nextLoopTurn } from './loop-turns';

describe('nextLoopTurn', () => {
  it('lets one waiter through per event-loop turn, in arrival order', async () => {
    const order: string[] = [];
    let loopTurns = 0;
    let counting = true;
    const count = () => {
      loopTurns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const producers = ['a', 'b', 'c'].map(async (name) => {
      for (let piece = 0; piece < 3; piece += 1) {
        await nextLoopTurn();
        order.push(`${name}${piece}:${loopTurns}`);
      }
    });
    await Promise.all(producers);
    counting = false;
    const turns = order.map((entry) => Number(entry.split(':')[1]));
    expect(order.map((entry) => entry.split(':')[0])).toEqual([
      'a0',
      'b0',
      'c0',
      'a1',
      'b1',
      'c1',
      'a2',
      'b2',
      'c2',
    ]);
    // Nine pieces, each on a loop turn of its own.
    expect(new Set(turns).size).toBe(9);
  });
});
