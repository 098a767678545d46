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

export function idbPersistStorage<S>(): PersistStorage<S> {
  return {
    getItem: (name) => idbGet<StorageValue<S>>(name).then((v) => v ?? null),
    setItem: (name, value) => idbSet(name, value),
    removeItem: (name) => idbDel(name),
  };
}
