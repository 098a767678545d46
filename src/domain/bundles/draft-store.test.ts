import { describe, expect, it } from 'vitest';
import { idbSet } from '../../lib/idb-storage';
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

  it('drafts read back from storage have no prototype: every stored agent id is a key, nothing else', async () => {
    const stored = `{"drafts": {${NAMES.map((n) => `"${n}": "draft of ${n}"`).join(', ')}, "bad": 3}}`;
    await idbSet('threadline:bundle-drafts', { state: JSON.parse(stored) as unknown, version: 2 });
    await useBundleDraftStore.persist.rehydrate();
    const { drafts } = useBundleDraftStore.getState();
    expect(Object.getPrototypeOf(drafts)).toBeNull();
    expect(Object.keys(drafts).sort()).toEqual([...NAMES].sort());
    for (const agent of NAMES)
      expect(selectDraftFor(agent)(useBundleDraftStore.getState())).toBe(`draft of ${agent}`);

    await idbSet('threadline:bundle-drafts', { state: { drafts: {} }, version: 2 });
    await useBundleDraftStore.persist.rehydrate();
    for (const agent of NAMES) expect(selectDraftFor(agent)(useBundleDraftStore.getState())).toBeUndefined();
  });
});
