/**
 * Whether the share dialog is open: view state of the workspace (the header's Share… button,
 * the palette's share actions and the dialog itself read it), one store per mounted workspace.
 */
import { createViewStore } from '../../components/ui/view-store';

interface ShareViewState {
  dialogOpen: boolean;
  openDialog: () => void;
  closeDialog: () => void;
}

export const shareView = createViewStore<ShareViewState>('The share dialog', (set) => ({
  dialogOpen: false,
  openDialog: () => set({ dialogOpen: true }),
  closeDialog: () => set({ dialogOpen: false }),
}));

/** Around the workspace: the share dialog's state lives as long as it. */
export const ShareViewProvider = shareView.Provider;

export function useShareDialogOpen(): boolean {
  return shareView.useView((s) => s.dialogOpen);
}
