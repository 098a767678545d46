/**
 * UI state of sharing: which share dialog is open, and the read-only document opened from a
 * file (kept in memory only; a snapshot link carries its own in the URL fragment).
 */
import { create } from 'zustand';
import type { ShareDocument } from './document';

export type ShareDialog = 'share' | null;

interface ShareState {
  dialog: ShareDialog;
  /** A document imported from a file, shown read-only until closed. */
  opened: ShareDocument | null;
  /** Why the last import failed, in words. */
  importError: string | null;
  openDialog: () => void;
  closeDialog: () => void;
  openDocument: (doc: ShareDocument) => void;
  closeDocument: () => void;
  setImportError: (message: string | null) => void;
}

export const useShareStore = create<ShareState>()((set) => ({
  dialog: null,
  opened: null,
  importError: null,
  openDialog: () => set({ dialog: 'share' }),
  closeDialog: () => set({ dialog: null }),
  openDocument: (doc) => set({ opened: doc, importError: null }),
  closeDocument: () => set({ opened: null }),
  setImportError: (message) => set({ importError: message }),
}));
