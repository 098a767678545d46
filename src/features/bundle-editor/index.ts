/** Public surface of the bundle editor. Monaco is never imported from here (it loads lazily). */
export { BundleEditorPanel, type BundleEditorPanelProps } from './BundleEditorPanel';
export const prepareMonaco = () => import('./monaco/warm-up').then((m) => m.warmUpJsonLanguage());
