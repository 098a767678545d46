/** Which of the palette and the shortcuts list is open (one global piece of UI state). */
import { create } from 'zustand';

interface PaletteState {
  open: 'palette' | 'shortcuts' | null;
  show: (what: 'palette' | 'shortcuts') => void;
  toggle: (what: 'palette' | 'shortcuts') => void;
  close: () => void;
}

export const usePaletteStore = create<PaletteState>()((set) => ({
  open: null,
  show: (what) => set({ open: what }),
  toggle: (what) => set((s) => ({ open: s.open === what ? null : what })),
  close: () => set({ open: null }),
}));
