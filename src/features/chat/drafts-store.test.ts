import { describe, expect, it } from 'vitest';
import { idbSet } from '../../lib/idb-storage';
import { selectDraft, useDraftsStore } from './drafts-store';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('unsent text per thread', () => {
  it('the unsent text of threads named like prototype members is empty until typed', () => {
    for (const task of NAMES) {
      expect(selectDraft(task)(useDraftsStore.getState())).toBe('');
      useDraftsStore.getState().setDraft(task, 'hello');
      expect(selectDraft(task)(useDraftsStore.getState())).toBe('hello');
      useDraftsStore.getState().setDraft(task, '');
      expect(selectDraft(task)(useDraftsStore.getState())).toBe('');
    }
  });

  it('unsent text read back from storage has no prototype: only stored task ids have text', async () => {
    await idbSet('threadline:drafts', {
      state: JSON.parse('{"drafts": {"__proto__": "kept", "toString": 7}}') as unknown,
      version: 1,
    });
    await useDraftsStore.persist.rehydrate();
    const { drafts } = useDraftsStore.getState();
    expect(Object.getPrototypeOf(drafts)).toBeNull();
    expect(selectDraft('__proto__')(useDraftsStore.getState())).toBe('kept');
    for (const task of ['constructor', 'toString', 'hasOwnProperty'])
      expect(selectDraft(task)(useDraftsStore.getState())).toBe('');
  });
});
