import { beforeEach, describe, expect, it } from 'vitest';
import { sortedIds } from './thread-order';
import { sortThreads, useThreadsStore } from './threads-store';

describe('threads store', () => {
  beforeEach(() => useThreadsStore.setState({ threads: {}, order: [] }));

  it('upserts by merging, keeping fields other features added', () => {
    const { upsertThread } = useThreadsStore.getState();
    upsertThread({ id: 't1', title: 'First', agent_id: 'card-disputes', created_at: '2025-01-01T00:00:00Z' });
    upsertThread({ id: 't1', parent: { task_id: 't0', interaction_id: 'm1' } });
    upsertThread({ id: 't1', title: 'Renamed' });
    expect(useThreadsStore.getState().threads.t1).toEqual({
      id: 't1',
      title: 'Renamed',
      agent_id: 'card-disputes',
      created_at: '2025-01-01T00:00:00Z',
      parent: { task_id: 't0', interaction_id: 'm1' },
    });
  });

  it('sorts by latest activity and forgets threads', () => {
    const { upsertThread, touchThread, removeThread } = useThreadsStore.getState();
    upsertThread({ id: 'a', created_at: '2025-01-01T00:00:00Z' });
    upsertThread({ id: 'b', created_at: '2025-01-02T00:00:00Z' });
    expect(sortThreads(useThreadsStore.getState().threads).map((t) => t.id)).toEqual(['b', 'a']);
    touchThread('a', '2025-01-03T00:00:00Z');
    expect(sortThreads(useThreadsStore.getState().threads).map((t) => t.id)).toEqual(['a', 'b']);
    removeThread('a');
    expect(Object.keys(useThreadsStore.getState().threads)).toEqual(['b']);
  });

  it('keeps the order as a full sort would, one thread at a time', () => {
    const s = () => useThreadsStore.getState();
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
});
