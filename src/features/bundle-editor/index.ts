/** Public surface of the bundle editor. Monaco is never imported from here (it loads lazily). */
import { preloadBundleEditor } from './BundleEditorPanel';
export { BundleEditorPanel, type BundleEditorPanelProps } from './BundleEditorPanel';
export const prepareMonaco = () =>
  Promise.all([preloadBundleEditor(), import('./monaco/warm-up').then((m) => m.warmUpJsonLanguage())]);
export type { OpenWitnessThread } from './witness-thread';
