import { describe, expect, it, vi } from 'vitest';
import type { ThreadRecord } from './thread-record';
import { LEGACY_KEY, threadRecordsStorage, type RecordsBackend } from './thread-records-storage';

const thread = (id: string, extra: Partial<ThreadRecord> = {}): ThreadRecord => ({
  id,
  title: `Thread ${id}`,
  agent_id: 'card-disputes',
  created_at: '2025-01-01T00:00:00.000Z',
  ...extra,
});

/** IndexedDB as a Map, counting the records written; `fail` makes a write throw (quota, clone). */
function fakeBackend(stored: Array<[string, unknown]> = [], legacy?: unknown) {
  const records = new Map<string, unknown>(stored);
  const state = { legacy, written: [] as string[], transactions: 0, deleted: [] as string[] };
  let fail: (ids: string[]) => boolean = () => false;
  const backend: RecordsBackend = {
    readAll: () => Promise.resolve([...records]),
    putMany: (entries) => {
      state.transactions += 1;
      if (fail(entries.map(([id]) => id)))
        return Promise.reject(new DOMException('full', 'QuotaExceededError'));
      for (const [id, r] of entries) {
        records.set(id, r);
        state.written.push(id);
      }
      return Promise.resolve();
    },
    deleteMany: (ids) => {
      for (const id of ids) records.delete(id);
      state.deleted.push(...ids);
      return Promise.resolve();
    },
    readLegacy: () => Promise.resolve(state.legacy),
    deleteLegacy: () => {
      state.legacy = undefined;
      return Promise.resolve();
    },
  };
  return { backend, records, state, failWhen: (f: typeof fail) => (fail = f) };
}

const many = (n: number): Array<[string, unknown]> =>
  Array.from({ length: n }, (_, i) => [`t${i}`, thread(`t${i}`)] as [string, unknown]);

describe('thread records storage', () => {
  it('writes the one record that changed, whatever the number of threads', async () => {
    for (const n of [1_000, 2_000, 4_000, 8_000]) {
      const { backend, state } = fakeBackend(many(n));
      const storage = threadRecordsStorage(backend);
      expect((await storage.load()).records.size).toBe(n);
      storage.write(thread('t7', { updated_at: '2026-01-01T00:00:00.000Z' }));
      await storage.flush();
      expect(state.written).toEqual(['t7']);
      expect(state.transactions).toBe(1);
    }
  });

  it('writes a burst of changes to one thread once, with its latest value', async () => {
    const { backend, records, state } = fakeBackend(many(3));
    const storage = threadRecordsStorage(backend);
    for (let i = 0; i < 5; i += 1) storage.write(thread('t1', { title: `name ${i}` }));
    storage.remove('t2');
    await storage.flush();
    expect(state.written).toEqual(['t1']);
    expect((records.get('t1') as ThreadRecord).title).toBe('name 4');
    expect(state.deleted).toEqual(['t2']);
  });

  it('copies the list stored whole into one record per thread, once, and deletes the old value', async () => {
    const legacy = {
      state: {
        threads: {
          a: thread('a'),
          b: thread('b', { runs_with: { bundle_hash: 'abc', version_id: null, version_tag: null } }),
          c: 42,
        },
      },
      version: 1,
    };
    const { backend, records, state } = fakeBackend([], legacy);
    const first = await threadRecordsStorage(backend).load();
    expect([...first.records.keys()].sort()).toEqual(['a', 'b']);
    expect(first.records.get('b')?.runs_with?.bundle_hash).toBe('abc');
    expect(first.unreadable).toEqual(['c']);
    expect([...records.keys()].sort()).toEqual(['a', 'b']);
    expect(state.legacy).toBeUndefined();
    // The next load reads the records; nothing is copied again.
    state.written = [];
    const second = await threadRecordsStorage(backend).load();
    expect([...second.records.keys()].sort()).toEqual(['a', 'b']);
    expect(state.written).toEqual([]);
  });

  it('keeps a thread’s own record over the old whole list (a copy that was interrupted)', async () => {
    const legacy = { state: { threads: { a: thread('a', { title: 'old' }), b: thread('b') } }, version: 1 };
    const { backend, state } = fakeBackend([['a', thread('a', { title: 'new' })]], legacy);
    const loaded = await threadRecordsStorage(backend).load();
    expect(loaded.records.get('a')?.title).toBe('new');
    expect(state.written).toEqual(['b']);
  });

  it('keeps the old whole list when the copy cannot be written, and copies it next time', async () => {
    const legacy = { state: { threads: { a: thread('a'), b: thread('b') } }, version: 1 };
    const fake = fakeBackend([], legacy);
    fake.failWhen(() => true);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const loaded = await threadRecordsStorage(fake.backend).load();
    expect([...loaded.records.keys()].sort()).toEqual(['a', 'b']);
    expect(fake.state.legacy).toBe(legacy);
    expect(warn).toHaveBeenCalledOnce();
    fake.failWhen(() => false);
    const again = await threadRecordsStorage(fake.backend).load();
    expect([...again.records.keys()].sort()).toEqual(['a', 'b']);
    expect([...fake.records.keys()].sort()).toEqual(['a', 'b']);
    expect(fake.state.legacy).toBeUndefined();
    warn.mockRestore();
  });

  it('skips and reports a damaged record; the other threads load', async () => {
    const { backend } = fakeBackend([
      ['a', thread('a')],
      ['b', 'not a thread'],
      ['c', { ...thread('c'), id: 'someone-else' }],
      ['d', { id: 'd', title: 7 }],
      ['e', thread('e')],
    ]);
    const loaded = await threadRecordsStorage(backend).load();
    expect([...loaded.records.keys()]).toEqual(['a', 'e']);
    expect(loaded.unreadable).toEqual(['b', 'c', 'd']);
  });

  it('reports an old whole list it cannot read, and leaves it', async () => {
    const { backend, state } = fakeBackend([['a', thread('a')]], 'garbage');
    const loaded = await threadRecordsStorage(backend).load();
    expect([...loaded.records.keys()]).toEqual(['a']);
    expect(loaded.unreadable).toEqual([LEGACY_KEY]);
    expect(state.legacy).toBe('garbage');
  });

  it('loads nothing, without failing, when IndexedDB cannot be read', async () => {
    const { backend } = fakeBackend();
    backend.readAll = () => Promise.reject(new Error('IndexedDB unavailable'));
    backend.readLegacy = () => Promise.reject(new Error('IndexedDB unavailable'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const loaded = await threadRecordsStorage(backend).load();
    expect(loaded.records.size).toBe(0);
    warn.mockRestore();
  });

  it('writes the other records when one is refused (too large, quota)', async () => {
    const fake = fakeBackend();
    fake.failWhen((ids) => ids.includes('big'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const storage = threadRecordsStorage(fake.backend);
    storage.write(thread('a'));
    storage.write(thread('big'));
    storage.write(thread('c'));
    await storage.flush();
    expect([...fake.records.keys()].sort()).toEqual(['a', 'c']);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
