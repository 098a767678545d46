/**
 * Runs `count` jobs, at most `concurrency` at a time, and hands each result over in job order as
 * soon as it and every job before it have finished. A job starts only while fewer than `window`
 * jobs are running or waiting for an earlier one, so what is held at once is bounded by
 * construction, however many jobs there are and however long one of them takes.
 */
export async function runInOrder<T>(
  count: number,
  options: { concurrency: number; window: number },
  run: (index: number) => Promise<T>,
  deliver: (result: T, index: number) => void | Promise<void>,
): Promise<void> {
  const slots = semaphore(options.concurrency);
  const window = Math.max(options.window, options.concurrency);
  const queue: Promise<T>[] = [];
  let next = 0;
  const start = () => {
    const index = next++;
    const result = slots.acquire().then(() => run(index).finally(slots.release));
    result.catch(() => {}); // a failure is thrown where the result is awaited, in order
    queue.push(result);
  };
  while (next < count && queue.length < window) start();
  for (let i = 0; i < count; i++) {
    const result = await queue.shift()!;
    if (next < count) start();
    await deliver(result, i);
  }
}

/** At most `n` holders at once; a released slot passes straight to the longest waiter. */
function semaphore(n: number) {
  let free = n;
  const waiting: (() => void)[] = [];
  return {
    acquire: (): Promise<void> => {
      if (free > 0) {
        free -= 1;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release: () => {
      const waiter = waiting.shift();
      if (waiter) waiter();
      else free += 1;
    },
  };
}
