/** A count of work for tests of the graph's cost (not a timer). */

/**
 * Elements visited through arrays while `fn` runs: every element an array method (find, filter,
 * includes, map…) walks, and every step of a for-of or spread over an array. A count of work, not
 * a timer: linear code visits about k× as many elements for a k× larger input.
 */
export function countVisits(fn: () => void): number {
  let visits = 0;
  const proto = Array.prototype as unknown as Record<string | symbol, unknown>;
  const walking = [
    'find',
    'findIndex',
    'findLast',
    'filter',
    'some',
    'every',
    'includes',
    'indexOf',
    'map',
    'forEach',
    'reduce',
    'flatMap',
    'slice',
  ];
  const saved = new Map<string | symbol, unknown>();
  for (const name of walking) {
    const original = proto[name] as (...args: unknown[]) => unknown;
    saved.set(name, original);
    proto[name] = function (this: unknown[], ...args: unknown[]) {
      visits += this.length;
      return original.apply(this, args);
    };
  }
  const iterate = proto[Symbol.iterator] as (this: unknown[]) => Iterator<unknown>;
  saved.set(Symbol.iterator, iterate);
  proto[Symbol.iterator] = function (this: unknown[]) {
    const it = iterate.call(this);
    return {
      next: () => {
        visits += 1;
        return it.next();
      },
      [Symbol.iterator]() {
        return this;
      },
    };
  };
  try {
    fn();
  } finally {
    for (const [name, original] of saved) proto[name] = original;
  }
  return visits;
}
