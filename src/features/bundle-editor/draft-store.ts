/**
 * The bundle drafts and the "Use this bundle" switch: a global store, because the chat's send and
 * the rerun dialog (other routes and panels) read what the editor holds. Persisted in IndexedDB so
 * drafts survive a reload.
 *
 * A draft belongs to an agent (its baseline is that agent's bundle). No draft stored means the
 * editor shows the baseline; the first edit (or switching "Use this bundle" on) stores one.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { BundleIssue } from '../../contract/api';
import { idbPersistStorage } from '../../lib/idb-storage';

export interface ServerIssues {
  agentId: string;
  /** The exact text the service rejected; the issues are shown while the text is unchanged. */
  text: string;
  issues: BundleIssue[];
}

export interface BundleDraftState {
  /** The agent whose bundle is edited; '' = follow the connection's agent. */
  agentId: string;
  drafts: Record<string, string>;
  useBundle: boolean;
  serverIssues: ServerIssues | null;
  hydrated: boolean;
  setAgentId: (agentId: string) => void;
  setDraft: (agentId: string, text: string) => void;
  /** Forgets the draft: the editor shows the baseline again. */
  resetDraft: (agentId: string) => void;
  /**
   * Turning on makes `agentId`'s draft the one sent, storing `text` as that draft when none
   * exists yet, so there is something to send.
   */
  setUseBundle: (on: boolean, agentId?: string, text?: string) => void;
  setServerIssues: (issues: ServerIssues | null) => void;
}

export const useBundleDraftStore = create<BundleDraftState>()(
  persist(
    (setState) => ({
      agentId: '',
      drafts: {},
      useBundle: false,
      serverIssues: null,
      hydrated: false,
      setAgentId: (agentId) => setState({ agentId }),
      setDraft: (agentId, text) =>
        setState((s) => (s.drafts[agentId] === text ? s : { drafts: { ...s.drafts, [agentId]: text } })),
      resetDraft: (agentId) =>
        setState((s) => {
          if (!(agentId in s.drafts)) return s;
          const { [agentId]: _gone, ...rest } = s.drafts;
          return { drafts: rest };
        }),
      setUseBundle: (on, agentId, text) =>
        setState((s) => {
          if (!on) return { useBundle: false };
          if (!agentId) return { useBundle: true };
          const drafts =
            text !== undefined && !(agentId in s.drafts) ? { ...s.drafts, [agentId]: text } : s.drafts;
          return { useBundle: true, agentId, drafts };
        }),
      setServerIssues: (serverIssues) => setState({ serverIssues }),
    }),
    {
      name: 'threadline:bundle-drafts',
      version: 1,
      storage: idbPersistStorage<Pick<BundleDraftState, 'agentId' | 'drafts' | 'useBundle'>>(),
      partialize: (s) => ({ agentId: s.agentId, drafts: s.drafts, useBundle: s.useBundle }),
      onRehydrateStorage: () => () => useBundleDraftStore.setState({ hydrated: true }),
    },
  ),
);

export const selectDrafts = (s: BundleDraftState) => s.drafts;
export const selectDraftFor = (agentId: string) => (s: BundleDraftState) => s.drafts[agentId];
export const selectUseBundle = (s: BundleDraftState) => s.useBundle;
export const selectEditorAgentId = (s: BundleDraftState) => s.agentId;
export const selectServerIssues = (s: BundleDraftState) => s.serverIssues;
export const selectHydrated = (s: BundleDraftState) => s.hydrated;
