import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { selectOutbox, useOutboxStore } from './outbox-store';

const err = new ApiError({ kind: 'network', status: 0, title: 'x', message: 'y', guidance: 'z' });

describe('outbox', () => {
  it('never starts an entry twice while it is pending, and allows a retry after a failure', () => {
    const { begin, fail, remove } = useOutboxStore.getState();
    expect(begin({ localId: 'l1', taskId: 't', text: 'hi' })).toBe(true);
    expect(begin({ localId: 'l1', taskId: 't', text: 'hi' })).toBe(false);
    fail('t', 'l1', err);
    expect(selectOutbox('t')(useOutboxStore.getState())[0]?.status).toBe('error');
    expect(begin({ localId: 'l1', taskId: 't', text: 'hi' })).toBe(true);
    expect(begin({ localId: 'l1', taskId: 't', text: 'hi' })).toBe(false);
    expect(selectOutbox('t')(useOutboxStore.getState())).toHaveLength(1);
    remove('t', 'l1');
    expect(selectOutbox('t')(useOutboxStore.getState())).toHaveLength(0);
  });
});
