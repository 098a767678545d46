/**
 * Structural sharing for lists that grow one item at a time (a thread's traces, its local
 * records): a list made from the cached one by one recorded change (lib/array-change) is kept
 * as it is, with no deep comparison of thousands of items and its change still readable by the
 * transcript; any other new list shares the unchanged items of the previous one, as TanStack
 * Query does by default.
 */
import { replaceEqualDeep } from '@tanstack/react-query';
import { changeOf } from '../lib/array-change';

export function keepRecordedChanges<T>(old: unknown, next: T): T {
  return Array.isArray(next) && changeOf(next)?.base === old ? next : replaceEqualDeep<T>(old, next);
}
