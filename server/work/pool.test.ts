/** The worker pool refuses what it cannot do (busy, late, crashed) and keeps working afterwards. */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool, WorkFailedError, WorkRefusedError, type PoolOptions } from './pool';

const script = new URL('./fixtures/test-worker.fixture.mjs', import.meta.url);
let pool: WorkerPool | undefined;
afterEach(() => pool?.close());

function start(options: Partial<Omit<PoolOptions, 'script'>> = {}): WorkerPool {
  return (pool = new WorkerPool({
    script,
    size: 1,
    queueLimit: 4,
    deadlineMs: 10_000,
    heapLimitMb: 64,
    ...options,
  }));
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof WorkRefusedError ? error.reason : error),
  );

describe('the worker pool', () => {
  it('answers jobs in the order they were asked for, and a job’s own error as such', async () => {
    const p = start();
    const answers = await Promise.all([1, 2, 3].map((value) => p.run({ value })));
    expect(answers).toEqual([1, 2, 3]);
    const failed = await p.run({ do: 'throw' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkFailedError);
    expect(failed).toMatchObject({ errorName: 'SomeError', message: 'the job failed' });
  });

  it('stops a job past its deadline, says so, and runs the next job on a fresh worker', async () => {
    const p = start({ deadlineMs: 300 });
    expect(await p.run({ value: 'warm' })).toBe('warm');
    const late = p.run({ do: 'work', ms: 60_000 });
    const next = p.run({ value: 'after' });
    expect(await refusal(late)).toBe('deadline');
    expect(await next).toBe('after');
  });

  it('starts its worker when a job needs it, or ahead of any job when told to start', async () => {
    // Thread ids count up as workers are created: another worker created in between tells which came first.
    const createdBetween = async (p: WorkerPool) => {
      const other = new Worker(script);
      const id = other.threadId;
      await other.terminate();
      return { id, poolWorker: await p.run<number>({ do: 'thread' }) };
    };
    const lazy = await createdBetween(start());
    expect(lazy.poolWorker).toBeGreaterThan(lazy.id);
    await pool?.close();
    const eager = start();
    eager.start();
    const ahead = await createdBetween(eager);
    expect(ahead.poolWorker).toBeLessThan(ahead.id);
  });

  it('refuses a job whose worker exits, and keeps working', async () => {
    const p = start();
    expect(await refusal(p.run({ do: 'exit' }))).toBe('crashed');
    expect(await p.run({ value: 'still here' })).toBe('still here');
  });

  it('refuses a job whose worker runs out of memory, without taking the process down', async () => {
    const p = start({ heapLimitMb: 32 });
    expect(await refusal(p.run({ do: 'grow' }))).toBe('crashed');
    expect(await p.run({ value: 'still here' })).toBe('still here');
  });

  it('refuses a job at once when the queue is full, and runs the ones it took', async () => {
    const p = start({ queueLimit: 2 });
    expect(await p.run({ value: 'warm' })).toBe('warm');
    const running = p.run({ do: 'work', ms: 300, value: 'a' });
    const queued = [p.run({ value: 'b' }), p.run({ value: 'c' })];
    expect(await refusal(p.run({ value: 'd' }))).toBe('busy');
    expect(await Promise.all([running, ...queued])).toEqual(['a', 'b', 'c']);
  });
});
