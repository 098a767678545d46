/**
 * Arrays made from another by one change (an item appended, or one replaced in place), with the
 * change remembered (weakly, by the new array) so a view derived from the old array can follow
 * it in constant work instead of reading the whole array again. An array made any other way has
 * no recorded change: its readers start over. Framework-free.
 */
export type ArrayChange<T> =
  | { kind: 'append'; base: readonly T[]; item: T }
  | { kind: 'replace'; base: readonly T[]; index: number; item: T };

const changes = new WeakMap<readonly unknown[], ArrayChange<unknown>>();

/** `base` with `item` at the end (a copy of the references; `base` is left as it is). */
export function appended<T>(base: readonly T[], item: T): T[] {
  const next = [...base, item];
  changes.set(next, { kind: 'append', base, item });
  return next;
}

/** `base` with the item at `index` replaced by `item`. */
export function replacedAt<T>(base: readonly T[], index: number, item: T): T[] {
  const next = base.slice();
  next[index] = item;
  changes.set(next, { kind: 'replace', base, index, item });
  return next;
}

/** How `next` was made from another array, when it was made by `appended` or `replacedAt`. */
export function changeOf<T>(next: readonly T[]): ArrayChange<T> | undefined {
  return changes.get(next) as ArrayChange<T> | undefined;
}
