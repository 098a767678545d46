import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { orderWork, sortedIds } from './thread-order';
import type { ThreadRecord } from './thread-record';
import { addLoadedThreads, replaceThreads, threadRecords, useThreadsStore } from './threads-store';

const s = () => useThreadsStore.getState();
const thread = (id: string, created_at: string, extra: Partial<ThreadRecord> = {}): ThreadRecord => ({
  id,
  title: `Thread ${id}`,
  agent_id: 'card-disputes',
  created_at,
  ...extra,
});

describe('threads store', () => {
  beforeEach(() => replaceThreads([]));
  afterEach(() => vi.restoreAllMocks());

  it('upserts by merging, keeping fields other features added', () => {
    const { upsertThread } = s();
    upsertThread({ id: 't1', title: 'First', agent_id: 'card-disputes', created_at: '2025-01-01T00:00:00Z' });
    upsertThread({ id: 't1', parent: { task_id: 't0', interaction_id: 'm1' } });
    upsertThread({ id: 't1', title: 'Renamed' });
    expect(s().threads.get('t1')).toEqual({
      id: 't1',
      title: 'Renamed',
      agent_id: 'card-disputes',
      created_at: '2025-01-01T00:00:00Z',
      parent: { task_id: 't0', interaction_id: 'm1' },
    });
  });

  it('keeps threads whose ids are names every object has', () => {
    for (const id of ['__proto__', 'constructor', 'toString'])
      s().upsertThread({ id, title: id, created_at: '2025-01-01T00:00:00Z' });
    expect(s().threads.get('__proto__')?.title).toBe('__proto__');
    expect(s().threads.get('constructor')?.title).toBe('constructor');
    expect(s().order).toHaveLength(3);
  });

  it('sorts by latest activity and forgets threads', () => {
    const { upsertThread, touchThread, removeThread } = s();
    upsertThread({ id: 'a', created_at: '2025-01-01T00:00:00Z' });
    upsertThread({ id: 'b', created_at: '2025-01-02T00:00:00Z' });
    expect(s().order).toEqual(['b', 'a']);
    touchThread('a', '2025-01-03T00:00:00Z');
    expect(s().order).toEqual(['a', 'b']);
    removeThread('a');
    expect([...s().threads.keys()]).toEqual(['b']);
    expect(s().order).toEqual(['b']);
  });

  it('keeps the order as a full sort would, one thread at a time', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let step = 0; step < 400; step += 1) {
      const id = `t${random(40)}`;
      const at = `2025-01-${String(1 + random(28)).padStart(2, '0')}T00:00:00Z`;
      const op = random(5);
      if (op === 0) s().removeThread(id);
      else if (op === 1) s().touchThread(id, at);
      else if (op === 2) s().renameThread(id, `name ${step}`);
      else s().upsertThread({ id, created_at: at, ...(op === 4 ? { updated_at: at } : {}) });
      expect(s().order).toEqual(sortedIds(s().threads));
    }
  });

  it('a send replaces one record in place and stores that one, whatever the number of threads', () => {
    const write = vi.spyOn(threadRecords, 'write').mockImplementation(() => undefined);
    for (const n of [1_000, 2_000, 4_000, 8_000]) {
      replaceThreads(
        Array.from({ length: n }, (_, i) =>
          thread(`t${i}`, new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString()),
        ),
      );
      const before = s().threads;
      const records = new Map(before);
      const newest = s().order[0]!;
      const middle = s().order[n >> 1]!;
      write.mockClear();
      orderWork.fullSorts = 0;
      s().touchThread(newest, '2026-01-01T00:00:00.000Z');
      s().touchThread(middle, '2026-01-02T00:00:00.000Z');
      // The same Map, not a copy; every other thread's record is the very object it was.
      expect(s().threads).toBe(before);
      let replaced = 0;
      for (const [id, r] of records) if (s().threads.get(id) !== r) replaced += 1;
      expect(replaced).toBe(2);
      // One record handed to storage per send, the changed one.
      expect(write.mock.calls.map(([r]) => r.id)).toEqual([newest, middle]);
      expect(orderWork.fullSorts).toBe(0);
      expect(s().order.slice(0, 2)).toEqual([middle, newest]);
    }
  });

  it('counts every change in `version`, and adding or removing in `membership`', () => {
    const v = s().version;
    const m = s().membership;
    s().upsertThread({ id: 'a', created_at: '2025-01-01T00:00:00Z' });
    s().touchThread('a', '2025-01-02T00:00:00Z');
    s().renameThread('a', 'A');
    expect(s().version).toBe(v + 3);
    expect(s().membership).toBe(m + 1);
  });

  it('adds the stored threads once read; a thread changed before keeps its changes and is stored again', () => {
    const write = vi.spyOn(threadRecords, 'write').mockImplementation(() => undefined);
    s().upsertThread({ id: 'b', title: 'Renamed here', created_at: '2025-01-02T00:00:00Z' });
    write.mockClear();
    const stored = new Map([
      ['a', thread('a', '2025-01-01T00:00:00Z')],
      [
        'b',
        thread('b', '2025-01-02T00:00:00Z', {
          runs_with: { bundle_hash: 'abc', version_id: null, version_tag: null },
        }),
      ],
    ]);
    addLoadedThreads(stored, ['damaged']);
    expect(s().order).toEqual(['b', 'a']);
    expect(s().threads.get('b')).toMatchObject({ title: 'Renamed here', runs_with: { bundle_hash: 'abc' } });
    expect(write.mock.calls.map(([r]) => r.id)).toEqual(['b']);
    expect(s().loaded).toBe(true);
    expect(s().unreadable).toContain('damaged');
  });
});
