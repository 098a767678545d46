import { describe, expect, it } from 'vitest';
import { boundedMap } from './bounded-map';

/** A call that finishes when told to, recording how many run at once. */
function harness() {
  let inFlight = 0;
  let peak = 0;
  const pending = new Map<number, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  const aborted: number[] = [];
  const work = (i: number, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      signal.addEventListener('abort', () => aborted.push(i));
      pending.set(i, {
        resolve: (v) => {
          inFlight -= 1;
          resolve(v);
        },
        reject: (e: Error) => {
          inFlight -= 1;
          reject(e);
        },
      });
    });
  return { work, pending, aborted, peak: () => peak };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('boundedMap', () => {
  it('keeps at most `limit` calls in flight and answers in index order', async () => {
    const h = harness();
    const result = boundedMap(10, 4, h.work);
    await tick();
    expect([...h.pending.keys()]).toEqual([0, 1, 2, 3]);
    // Finish them out of order, one at a time.
    for (const i of [3, 1, 0, 2, 5, 4, 7, 6, 9, 8]) {
      await tick();
      h.pending.get(i)!.resolve(`page ${i}`);
    }
    expect(await result).toEqual(Array.from({ length: 10 }, (_, i) => `page ${i}`));
    expect(h.peak()).toBe(4);
  });

  it('stops at the first failure, aborts the calls still running and rejects with it', async () => {
    const h = harness();
    const result = boundedMap(10, 3, h.work);
    await tick();
    const boom = new Error('page 2 failed');
    h.pending.get(1)!.reject(boom);
    await expect(result).rejects.toBe(boom);
    expect(h.aborted.sort()).toEqual([0, 1, 2]);
    // No call was started after the failure.
    expect(Math.max(...h.pending.keys())).toBe(2);
  });

  it('answers an empty list without calling', async () => {
    expect(await boundedMap(0, 4, () => Promise.reject(new Error('called')))).toEqual([]);
  });
});
