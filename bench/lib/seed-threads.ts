/**
 * Seeded threads in the SPA's thread list, written straight into IndexedDB (the page is reloaded
 * after to read them). Either storage the app has used: one record per thread (database
 * `threadline-threads`), or, for builds from before it, the whole list under `threadline:threads`
 * in the key-value store. Earlier seeded threads (ids starting with `prefix`) are replaced.
 */
import type { Page } from '@playwright/test';

export interface SeedThread {
  id: string;
  title: string;
  agent_id: string;
  created_at: string;
}

export async function seedThreadRecords(page: Page, prefix: string, seeds: SeedThread[]): Promise<void> {
  await page.evaluate(
    async ({ prefix, seeds }) => {
      const done = <T>(r: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(new Error(String(r.error)));
        });
      const finished = (tx: IDBTransaction) =>
        new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(new Error(String(tx.error)));
        });
      const names = (await indexedDB.databases()).map((d) => d.name);
      if (names.includes('threadline-threads')) {
        const db = await done(indexedDB.open('threadline-threads'));
        const tx = db.transaction('threads', 'readwrite');
        const store = tx.objectStore('threads');
        for (const key of await done(store.getAllKeys()))
          if (String(key).startsWith(prefix)) store.delete(key);
        for (const t of seeds) store.put(t, t.id);
        await finished(tx);
        db.close();
        return;
      }
      const db = await done(indexedDB.open('keyval-store'));
      const store = db.transaction('keyval', 'readwrite').objectStore('keyval');
      const current = (await done(store.get('threadline:threads'))) as {
        state: { threads: Record<string, unknown> };
        version: number;
      };
      const threads: Record<string, unknown> = {};
      for (const [id, t] of Object.entries(current.state.threads))
        if (!id.startsWith(prefix)) threads[id] = t;
      for (const t of seeds) threads[t.id] = t;
      await done(store.put({ ...current, state: { ...current.state, threads } }, 'threadline:threads'));
      db.close();
    },
    { prefix, seeds },
  );
}
