import { describe, expect, it } from 'vitest';
import { runInOrder } from './ordered-run';

/** Jobs that finish when the test says so; how many ran at once is counted. */
function controlledJobs() {
  const finish: ((value: number) => void)[] = [];
  let running = 0;
  let mostRunning = 0;
  const started = new Set<number>();
  const run = (i: number) =>
    new Promise<number>((resolve) => {
      started.add(i);
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      finish[i] = (v) => {
        running -= 1;
        resolve(v);
      };
    });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { finish, run, started, settle, mostRunning: () => mostRunning };
}

describe('runInOrder', () => {
  it('hands results over in job order, each as soon as the jobs before it are done', async () => {
    const jobs = controlledJobs();
    const delivered: number[] = [];
    const done = runInOrder(3, { concurrency: 3, window: 3 }, jobs.run, (r) => {
      delivered.push(r);
    });
    await jobs.settle();
    jobs.finish[2]!(20);
    jobs.finish[1]!(10);
    await jobs.settle();
    expect(delivered).toEqual([]); // job 0 still runs
    jobs.finish[0]!(0);
    await done;
    expect(delivered).toEqual([0, 10, 20]);
  });

  it('delivers the first result before the last job starts (the report streams)', async () => {
    const events: string[] = [];
    const done = runInOrder(
      10,
      { concurrency: 2, window: 4 },
      (i) => {
        events.push(`start ${i}`);
        return Promise.resolve(i);
      },
      (r) => {
        events.push(`deliver ${r}`);
      },
    );
    await done;
    expect(events.indexOf('deliver 0')).toBeLessThan(events.indexOf('start 9'));
  });

  it('starts no job beyond the window while an early one is slow, and never runs more than the concurrency', async () => {
    const jobs = controlledJobs();
    const delivered: number[] = [];
    const done = runInOrder(100, { concurrency: 2, window: 5 }, jobs.run, (r) => {
      delivered.push(r);
    });
    await jobs.settle();
    // Job 0 hangs; the others finish as soon as they start.
    for (let round = 0; round < 20; round++) {
      for (const i of jobs.started) if (i > 0) jobs.finish[i]?.(i);
      await jobs.settle();
    }
    expect(jobs.started.size).toBe(5);
    expect(delivered).toEqual([]);
    jobs.finish[0]!(0);
    for (let round = 0; round < 200 && delivered.length < 100; round++) {
      for (const i of jobs.started) jobs.finish[i]?.(i);
      await jobs.settle();
    }
    await done;
    expect(delivered).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(jobs.mostRunning()).toBe(2);
  });

  it('throws a failed job where its result is due, in order', async () => {
    const delivered: number[] = [];
    await expect(
      runInOrder(
        3,
        { concurrency: 3, window: 3 },
        (i) => (i === 1 ? Promise.reject(new Error('job 1 failed')) : Promise.resolve(i)),
        (r) => {
          delivered.push(r);
        },
      ),
    ).rejects.toThrow('job 1 failed');
    expect(delivered).toEqual([0]);
  });
});
