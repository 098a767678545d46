/**
 * The workspace's own view state: which of its dialogs is open (connection settings, a new
 * thread). One store per mounted workspace (see components/ui/view-store), provided by Root
 * around the workspace and its palette actions.
 */
import { useMemo } from 'react';
import { createViewStore } from '../components/ui/view-store';

export type WorkspaceDialog = 'connection' | 'new-thread';

interface WorkspaceViewState {
  dialog: WorkspaceDialog | null;
  show: (which: WorkspaceDialog) => void;
  /** Closes `which` if it is the open one. */
  close: (which: WorkspaceDialog) => void;
}

export const workspaceView = createViewStore<WorkspaceViewState>('The workspace', (set) => ({
  dialog: null,
  show: (which) => set({ dialog: which }),
  close: (which) => set((s) => (s.dialog === which ? { dialog: null } : s)),
}));

/** One of the workspace's dialogs: whether it is open, and stable functions to open and close it. */
export function useWorkspaceDialog(which: WorkspaceDialog): {
  open: boolean;
  show: () => void;
  close: () => void;
} {
  const open = workspaceView.useView((s) => s.dialog === which);
  const store = workspaceView.useViewApi();
  return useMemo(
    () => ({ open, show: () => store.getState().show(which), close: () => store.getState().close(which) }),
    [open, store, which],
  );
}
