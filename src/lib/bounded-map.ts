/**
 * `work(i)` for i = 0 … count-1 with at most `limit` calls in flight, results in index order
 * whatever order they finish in. The first failure stops new calls, aborts the signal handed to
 * the calls still running, and rejects with that failure. Framework-free.
 */
export async function boundedMap<T>(
  count: number,
  limit: number,
  work: (index: number, signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T[]> {
  const results = new Array<T>(count);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < count) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(index, controller.signal);
      } catch (error) {
        if (!failed) {
          failed = true;
          controller.abort(error);
        }
        throw error;
      }
    }
  };
  try {
    const workers = Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker);
    // The first failure wins (the others are aborts it caused).
    await new Promise<void>((resolve, reject) => {
      let running = workers.length;
      for (const w of workers)
        w.then(() => {
          running -= 1;
          if (running === 0) resolve();
        }, reject);
    });
    return results;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
