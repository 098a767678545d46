/** Which of the palette and the shortcuts list is open: view state of the keyboard host. */
import { createViewStore } from '../../components/ui/view-store';

export type PaletteDialog = 'palette' | 'shortcuts';

interface PaletteState {
  open: PaletteDialog | null;
  show: (what: PaletteDialog) => void;
  toggle: (what: PaletteDialog) => void;
  close: () => void;
}

export const paletteView = createViewStore<PaletteState>('The command palette', (set) => ({
  open: null,
  show: (what) => set({ open: what }),
  toggle: (what) => set((s) => ({ open: s.open === what ? null : what })),
  close: () => set({ open: null }),
}));
