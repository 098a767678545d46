import { describe, expect, it } from 'vitest';
import { runStepsWhenIdle, type IdleScheduler } from './prefetch';

/** A scheduler the test drives: each `idle()` runs what waits for the next idle period. */
function fakeIdle() {
  const queue: Array<() => void> = [];
  const schedule: IdleScheduler = (task) => {
    queue.push(task);
    return () => {
      const at = queue.indexOf(task);
      if (at >= 0) queue.splice(at, 1);
    };
  };
  const idle = async () => {
    queue.shift()?.();
    // Let the step's promise settle and the next step be scheduled.
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { schedule, idle, waiting: () => queue.length };
}

describe('prefetching while the user reads', () => {
  it('runs one step per idle period, in order, after the previous one settled', async () => {
    const ran: string[] = [];
    const { schedule, idle, waiting } = fakeIdle();
    runStepsWhenIdle(
      [
        () => ran.push('chunk'),
        () => Promise.resolve().then(() => ran.push('graph')),
        () => ran.push('editor'),
      ],
      schedule,
    );
    expect(ran).toEqual([]);
    await idle();
    expect(ran).toEqual(['chunk']);
    await idle();
    expect(ran).toEqual(['chunk', 'graph']);
    await idle();
    expect(ran).toEqual(['chunk', 'graph', 'editor']);
    expect(waiting()).toBe(0);
  });

  it('goes on after a step that throws or rejects', async () => {
    const ran: string[] = [];
    const { schedule, idle } = fakeIdle();
    runStepsWhenIdle(
      [
        () => {
          throw new Error('offline');
        },
        () => Promise.reject(new Error('offline')),
        () => ran.push('last'),
      ],
      schedule,
    );
    await idle();
    await idle();
    await idle();
    expect(ran).toEqual(['last']);
  });

  it('stops when cancelled (the workspace went away)', async () => {
    const ran: string[] = [];
    const { schedule, idle, waiting } = fakeIdle();
    const cancel = runStepsWhenIdle([() => ran.push('a'), () => ran.push('b')], schedule);
    await idle();
    cancel();
    expect(waiting()).toBe(0);
    await idle();
    expect(ran).toEqual(['a']);
  });
});
