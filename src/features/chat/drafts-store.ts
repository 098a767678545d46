/** Unsent text per thread, kept in IndexedDB so a reload does not lose it. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { idbPersistStorage } from '../../lib/idb-storage';
import { emptyRecord, isString, ownRecord, ownValue, withEntry, withoutEntry } from '../../lib/own-records';

interface DraftsState {
  drafts: Readonly<Record<string, string>>;
  setDraft: (taskId: string, text: string) => void;
}

export const useDraftsStore = create<DraftsState>()(
  persist(
    (setState) => ({
      drafts: emptyRecord<string>(),
      setDraft: (taskId, text) =>
        setState((s) => {
          if (text) return { drafts: withEntry(s.drafts, taskId, text) };
          const drafts = withoutEntry(s.drafts, taskId);
          return drafts === s.drafts ? s : { drafts };
        }),
    }),
    {
      name: 'threadline:drafts',
      version: 1,
      storage: idbPersistStorage<Pick<DraftsState, 'drafts'>>(),
      partialize: (s) => ({ drafts: s.drafts }),
      // Read back with no prototype: a task id such as `constructor` is a key like any other.
      merge: (persisted, current) => ({
        ...current,
        drafts: ownRecord((persisted as { drafts?: unknown } | null)?.drafts, isString),
      }),
    },
  ),
);

export const selectDraft = (taskId: string) => (s: DraftsState) => ownValue(s.drafts, taskId) ?? '';
