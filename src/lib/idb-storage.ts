/**
 * A zustand `persist` storage backed by IndexedDB (idb-keyval): survives reloads, holds more
 * than localStorage, and never blocks the main thread. Falls back to memory where IndexedDB is
 * missing (tests, private modes), so callers never have to care.
 */
import { del, get, set } from 'idb-keyval';
import type { PersistStorage, StorageValue } from 'zustand/middleware';

const memory = new Map<string, unknown>();
const hasIdb = () => typeof indexedDB !== 'undefined';

export async function idbGet<T>(key: string): Promise<T | undefined> {
  if (!hasIdb()) return memory.get(key) as T | undefined;
  try {
    return await get<T>(key);
  } catch {
    return memory.get(key) as T | undefined;
  }
}

export async function idbSet(key: string, value: unknown): Promise<void> {
  memory.set(key, value);
  if (!hasIdb()) return;
  try {
    await set(key, value);
  } catch {
    /* memory copy kept */
  }
}

export async function idbDel(key: string): Promise<void> {
  memory.delete(key);
  if (!hasIdb()) return;
  try {
    await del(key);
  } catch {
    /* nothing to do */
  }
}

/**
 * With `deferWrites`, a write waits for the browser to be idle (at most `DEFERRED_WRITE_MS`) and
 * only the latest value of a burst is written, so a store written on every send (the thread list)
 * does not copy itself into IndexedDB on the send's path. Pending writes are flushed when the
 * page is hidden or left.
 */
export function idbPersistStorage<S>(options: { deferWrites?: boolean } = {}): PersistStorage<S> {
  return {
    getItem: (name) =>
      pending.has(name)
        ? Promise.resolve(pending.get(name) as StorageValue<S>)
        : idbGet<StorageValue<S>>(name).then((v) => v ?? null),
    setItem: (name, value) => (options.deferWrites ? deferWrite(name, value) : idbSet(name, value)),
    removeItem: (name) => {
      pending.delete(name);
      return idbDel(name);
    },
  };
}

/** At most this long between a deferred write and IndexedDB. */
export const DEFERRED_WRITE_MS = 200;
const pending = new Map<string, unknown>();
let scheduled = false;

function flushPending(): void {
  scheduled = false;
  for (const [name, value] of pending) void idbSet(name, value);
  pending.clear();
}

function deferWrite(name: string, value: unknown): void {
  memory.set(name, value);
  pending.set(name, value);
  if (scheduled) return;
  scheduled = true;
  if (typeof requestIdleCallback === 'function')
    requestIdleCallback(flushPending, { timeout: DEFERRED_WRITE_MS });
  else setTimeout(flushPending, DEFERRED_WRITE_MS);
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flushPending);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushPending();
  });
}
