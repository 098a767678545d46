/**
 * The bundle drafts, one per agent: a global store, because the "runs with" control, the rerun
 * dialog and the editor (other panels) read them. Persisted in IndexedDB so drafts survive a
 * reload. A draft belongs to an agent (its baseline is that agent's bundle) and only that
 * agent's threads may run with it. No draft stored means the editor shows the baseline.
 *
 * `serverIssues` is the service's 422 for a draft, shown as editor markers while the text is
 * unchanged; any path that sends a draft (send, rerun) sets it.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { BundleIssue } from '../../contract/api';
import { idbPersistStorage } from '../../lib/idb-storage';
import { emptyRecord, isString, ownRecord, ownValue, withEntry, withoutEntry } from '../../lib/own-records';

export interface ServerIssues {
  agentId: string;
  /** The exact text the service rejected; the issues are shown while the text is unchanged. */
  text: string;
  issues: BundleIssue[];
}

export interface BundleDraftState {
  /** Keyed by agent id, which may be any name (read with `ownValue`). */
  drafts: Readonly<Record<string, string>>;
  serverIssues: ServerIssues | null;
  hydrated: boolean;
  setDraft: (agentId: string, text: string) => void;
  /** Forgets the draft: the editor shows the baseline again. */
  resetDraft: (agentId: string) => void;
  setServerIssues: (issues: ServerIssues | null) => void;
}

/** The drafts of a stored state, as a record with no prototype (texts only). */
const storedDrafts = (persisted: unknown) =>
  ownRecord((persisted as { drafts?: unknown } | null)?.drafts, isString);

export const useBundleDraftStore = create<BundleDraftState>()(
  persist(
    (setState) => ({
      drafts: emptyRecord<string>(),
      serverIssues: null,
      hydrated: false,
      setDraft: (agentId, text) =>
        setState((s) =>
          ownValue(s.drafts, agentId) === text ? s : { drafts: withEntry(s.drafts, agentId, text) },
        ),
      resetDraft: (agentId) =>
        setState((s) => {
          const drafts = withoutEntry(s.drafts, agentId);
          return drafts === s.drafts ? s : { drafts };
        }),
      setServerIssues: (serverIssues) => setState({ serverIssues }),
    }),
    {
      name: 'threadline:bundle-drafts',
      version: 2,
      storage: idbPersistStorage<Pick<BundleDraftState, 'drafts'>>(),
      partialize: (s) => ({ drafts: s.drafts }),
      // Version 1 also held a browser-wide "use this bundle" switch: only the drafts are kept.
      migrate: (persisted) => ({ drafts: storedDrafts(persisted) }),
      // Read back with no prototype: an agent id such as `constructor` is a key like any other.
      merge: (persisted, current) => ({ ...current, drafts: storedDrafts(persisted) }),
      onRehydrateStorage: () => () => useBundleDraftStore.setState({ hydrated: true }),
    },
  ),
);

export const selectDrafts = (s: BundleDraftState) => s.drafts;
export const selectDraftFor = (agentId: string) => (s: BundleDraftState) => ownValue(s.drafts, agentId);
export const selectServerIssues = (s: BundleDraftState) => s.serverIssues;
export const selectHydrated = (s: BundleDraftState) => s.hydrated;
