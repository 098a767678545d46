/**
 * Runs work for one key (a task id) strictly one after another, in arrival order, while work for
 * different keys runs freely. Each turn therefore reads the state the previous turn wrote.
 */
export function createKeyedSerializer() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(work, work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    /** Keys with work queued or running (for tests and diagnostics). */
    get activeKeys(): number {
      return tails.size;
    },
  };
}
export type KeyedSerializer = ReturnType<typeof createKeyedSerializer>;
