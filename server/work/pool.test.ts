/**
 * The worker pool refuses what it cannot do (busy, late, crashed) and keeps working afterwards, and
 * gives every key its turn.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool, WorkFailedError, WorkRefusedError, type PoolOptions } from './pool';

const script = new URL('./fixtures/test-worker.fixture.mjs', import.meta.url);
let pool: WorkerPool | undefined;
afterEach(() => pool?.close());

/** A pool of one worker whose whole queue one key may fill, unless the options say otherwise. */
function start(options: Partial<Omit<PoolOptions, 'script'>> = {}): WorkerPool {
  const queueLimit = options.queueLimit ?? 4;
  return (pool = new WorkerPool({
    script,
    size: 1,
    queueLimit,
    keyQueueLimit: queueLimit,
    deadlineMs: 10_000,
    heapLimitMb: 64,
    ...options,
  }));
}

const share = (key: string, agent = '') => ({ key, agent });

/** The order in which the jobs' answers (or refusals) came. */
function answerOrder(jobs: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = [];
  return Promise.all(
    Object.entries(jobs).map(([name, job]) => {
      const settled = () => void order.push(name);
      return job.then(settled, settled);
    }),
  ).then(() => order);
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
    expect(await refusal(late)).toBe('deadline');
    expect(await p.run({ value: 'after' })).toBe('after');
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

  it('gives a free worker to a key with nothing running before the jobs of a key that floods it', async () => {
    const p = start({ queueLimit: 8 });
    expect(await p.run({ value: 'warm' })).toBe('warm');
    const flood = share('flood');
    const order = answerOrder({
      f1: p.run({ do: 'work', ms: 200 }, flood),
      f2: p.run({ value: 'f2' }, flood),
      f3: p.run({ value: 'f3' }, flood),
      f4: p.run({ value: 'f4' }, flood),
      quiet: p.run({ value: 'q' }, share('quiet')),
    });
    expect(await order).toEqual(['f1', 'quiet', 'f2', 'f3', 'f4']);
  });

  it('keeps a thread for other keys when one key runs as many jobs as it may', async () => {
    const p = start({ size: 2, keyRunLimit: 1 });
    p.start();
    const flood = share('flood');
    const order = answerOrder({
      f1: p.run({ do: 'work', ms: 1_000 }, flood),
      f2: p.run({ value: 'f2' }, flood),
      quiet: p.run({ value: 'q' }, share('quiet')),
    });
    expect(await order).toEqual(['quiet', 'f1', 'f2']);
  });

  it("refuses a key's jobs past its own share of the queue while another key has work, not the other key's", async () => {
    const p = start({ queueLimit: 8, keyQueueLimit: 2 });
    expect(await p.run({ value: 'warm' })).toBe('warm');
    const flood = share('flood');
    const running = p.run({ do: 'work', ms: 300, value: 'f1' }, flood);
    const queued = [p.run({ value: 'f2' }, flood), p.run({ value: 'f3' }, share('flood', 'another agent'))];
    // Alone, a key may wait past its share (one client of one key sending many at once)…
    const alone = p.run({ value: 'f4' }, flood);
    // …but once another key has work, a key at its share is refused.
    const quiet = p.run({ value: 'q' }, share('quiet'));
    const over = p.run({ value: 'f5' }, flood).catch((e: unknown) => e);
    expect(await over).toMatchObject({
      reason: 'busy',
      message: expect.stringMatching(/this key already has 2/),
    });
    expect(await Promise.all([running, ...queued, alone, quiet])).toEqual(['f1', 'f2', 'f3', 'f4', 'q']);
  });

  it('when the queue is full, refuses a job of the key that holds most of it to let another key in', async () => {
    const p = start({ queueLimit: 3, keyQueueLimit: 3 });
    expect(await p.run({ value: 'warm' })).toBe('warm');
    const flood = share('flood');
    const running = p.run({ do: 'work', ms: 300, value: 'f1' }, flood);
    const kept = [p.run({ value: 'f2' }, flood), p.run({ value: 'f3' }, flood)];
    const newest = p.run({ value: 'f4' }, flood).catch((e: unknown) => e);
    const quiet = p.run({ value: 'q' }, share('quiet'));
    expect(await newest).toMatchObject({
      reason: 'busy',
      message: expect.stringMatching(/this key has the most of them/),
    });
    expect(await Promise.all([running, ...kept, quiet])).toEqual(['f1', 'f2', 'f3', 'q']);
  });

  it('refuses a job that waits for a worker longer than it may, and runs the rest', async () => {
    const p = start({ maxWaitMs: 100 });
    expect(await p.run({ value: 'warm' })).toBe('warm');
    const running = p.run({ do: 'work', ms: 600, value: 'long' });
    const waiting = p.run({ value: 'waiting' }).catch((e: unknown) => e);
    expect(await waiting).toMatchObject({ reason: 'busy', message: expect.stringMatching(/waited 0\.1 s/) });
    expect(await running).toBe('long');
    expect(await p.run({ value: 'next' })).toBe('next');
  });

  it("counts a job's wait for a worker against its deadline", async () => {
    const p = start({ deadlineMs: 3_000, maxWaitMs: 2_500 });
    expect(await p.run({ value: 'warm' })).toBe('warm');
    const first = p.run({ do: 'work', ms: 300, value: 'first' });
    const late = p.run({ do: 'work', ms: 60_000 }).catch((e: unknown) => e);
    expect(await first).toBe('first');
    expect(await late).toMatchObject({
      reason: 'deadline',
      message: expect.stringMatching(/more than 3 s, .*\(0\.\d+ s of it waiting for a thread/),
    });
  });

  it("does not count the time the pool's first worker takes to load as waiting", async () => {
    const p = start({ deadlineMs: 10_000, maxWaitMs: 1 });
    expect(await p.run({ value: 'first' })).toBe('first');
  });
});
