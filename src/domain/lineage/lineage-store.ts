/**
 * Branch lineage kept in this browser (IndexedDB): the API answers a rerun with a new task id and
 * nothing about where it came from, so every rerun made here records its origin.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { idbPersistStorage } from '../../lib/idb-storage';
import type { LineageRecord } from './lineage';

interface LineageState {
  records: LineageRecord[];
  hydrated: boolean;
  addRecord: (record: LineageRecord) => void;
}

export const useLineageStore = create<LineageState>()(
  persist(
    (setState) => ({
      records: [],
      hydrated: false,
      addRecord: (record) =>
        setState((s) => ({ records: [...s.records.filter((r) => r.task_id !== record.task_id), record] })),
    }),
    {
      name: 'threadline:lineage',
      version: 1,
      storage: idbPersistStorage<Pick<LineageState, 'records'>>(),
      partialize: (s) => ({ records: s.records }),
      onRehydrateStorage: () => () => useLineageStore.setState({ hydrated: true }),
    },
  ),
);

export const selectLineageRecords = (s: LineageState) => s.records;
export const selectLineageHydrated = (s: LineageState) => s.hydrated;
