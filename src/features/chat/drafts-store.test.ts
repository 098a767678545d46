import { describe, expect, it } from 'vitest';
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
});
