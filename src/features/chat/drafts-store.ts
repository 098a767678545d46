/** Unsent text per thread, kept in IndexedDB so a reload does not lose it. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { idbPersistStorage } from '../../lib/idb-storage';

interface DraftsState {
  drafts: Record<string, string>;
  setDraft: (taskId: string, text: string) => void;
}

export const useDraftsStore = create<DraftsState>()(
  persist(
    (setState) => ({
      drafts: {},
      setDraft: (taskId, text) =>
        setState((s) => {
          if (text) return { drafts: { ...s.drafts, [taskId]: text } };
          if (!(taskId in s.drafts)) return s;
          const { [taskId]: _gone, ...rest } = s.drafts;
          return { drafts: rest };
        }),
    }),
    {
      name: 'threadline:drafts',
      version: 1,
      storage: idbPersistStorage<Pick<DraftsState, 'drafts'>>(),
      partialize: (s) => ({ drafts: s.drafts }),
    },
  ),
);

export const selectDraft = (taskId: string) => (s: DraftsState) => s.drafts[taskId] ?? '';
export const selectSetDraft = (s: DraftsState) => s.setDraft;
