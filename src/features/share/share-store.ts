/**
 * The read-only document opened from a file (kept in memory only; a snapshot link carries its
 * own in the URL fragment) and why the last import failed. App-wide: the document replaces the
 * workspace, and a file can be dropped on any view. (Whether the share dialog is open is the
 * workspace's view state: share-view.ts.)
 */
import { create } from 'zustand';
import type { ShareDocument } from './document';

interface ShareState {
  /** A document imported from a file, shown read-only until closed. */
  opened: ShareDocument | null;
  /** Why the last import failed, in words. */
  importError: string | null;
  openDocument: (doc: ShareDocument) => void;
  closeDocument: () => void;
  setImportError: (message: string | null) => void;
}

export const useShareStore = create<ShareState>()((set) => ({
  opened: null,
  importError: null,
  openDocument: (doc) => set({ opened: doc, importError: null }),
  closeDocument: () => set({ opened: null }),
  setImportError: (message) => set({ importError: message }),
}));
