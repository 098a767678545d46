/**
 * Bundles sent by clients, remembered by hash with their validation issues. A playground sends
 * the same bundle with every message; reusing the first parsed object skips validating it again
 * and lets the engine reuse what it compiled for that object. Least recently used goes first.
 */
import type { BundleIssue } from '../../src/contract/api';
import type { Bundle } from '../../src/contract/bundle';

export interface CheckedBundle {
  bundle: Bundle;
  issues: BundleIssue[];
}

export function createBundleCache(capacity = 32) {
  const entries = new Map<string, CheckedBundle>();
  return {
    /** The entry for `hash`, computing it with `check` on a miss (kept once computed). */
    async lookup(hash: string, check: () => Promise<CheckedBundle>): Promise<CheckedBundle> {
      const hit = entries.get(hash);
      if (hit) {
        entries.delete(hash);
        entries.set(hash, hit);
        return hit;
      }
      const entry = await check();
      entries.set(hash, entry);
      if (entries.size > capacity) entries.delete(entries.keys().next().value!);
      return entry;
    },
    get size(): number {
      return entries.size;
    },
  };
}
export type BundleCache = ReturnType<typeof createBundleCache>;
