import { describe, expect, it } from 'vitest';
import { selectDraftFor, useBundleDraftStore } from './draft-store';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('bundle drafts', () => {
  it('the bundle drafts of agents named like prototype members are drafts like any other', () => {
    for (const agent of NAMES) {
      expect(selectDraftFor(agent)(useBundleDraftStore.getState())).toBeUndefined();
      useBundleDraftStore.getState().setDraft(agent, `{"name": "${agent}"}`);
      expect(selectDraftFor(agent)(useBundleDraftStore.getState())).toBe(`{"name": "${agent}"}`);
      useBundleDraftStore.getState().resetDraft(agent);
      expect(selectDraftFor(agent)(useBundleDraftStore.getState())).toBeUndefined();
    }
    // A state read back from storage is a plain object: still only its own entries count.
    useBundleDraftStore.setState({
      drafts: JSON.parse('{"__proto__": "kept", "a": "b"}') as Record<string, string>,
    });
    expect(selectDraftFor('__proto__')(useBundleDraftStore.getState())).toBe('kept');
    expect(selectDraftFor('constructor')(useBundleDraftStore.getState())).toBeUndefined();
  });
});
