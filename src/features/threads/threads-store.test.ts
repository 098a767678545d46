import { beforeEach, describe, expect, it } from 'vitest';
import { sortThreads, useThreadsStore } from './threads-store';

describe('threads store', () => {
  beforeEach(() => useThreadsStore.setState({ threads: {} }));

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
});
