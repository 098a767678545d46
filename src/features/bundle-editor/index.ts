/** Public surface of the bundle editor. Monaco is never imported from here (it loads lazily). */
export { BundleEditorPanel, type BundleEditorPanelProps } from './BundleEditorPanel';
export {
  draftSendState,
  useDraftSendState,
  BundleBlockedError,
  isBundleBlockedError,
  type DraftSendState,
} from './active-bundle';
export { rememberBundle, recallBundle, bundleByHashQueryOptions, type BundleByHash } from './bundle-archive';
export { useBundleDraftStore } from './draft-store';
export { bundleText } from './analysis';
export { useChangeFromOwn } from './bundle-change';

export { shortBundleHash } from '../../lib/short-hash';
export { LazyBundleDiff } from './LazyBundleDiff';
export { readDataTransfer, readFileList } from './read-files';
export { importFiles, type PickedFile } from './import-files';
/**
 * Ahead of the first Bundle tab: starts the validator's worker, then loads Monaco (its chunk and
 * the bundle's JSON Schema) and has its JSON worker read the schema. Each part is a separate
 * step so a caller can give each its own idle period.
 */
export { startAnalysisWorker } from './analysis-runner';
export const prepareMonaco = () => import('./monaco/warm-up').then((m) => m.warmUpJsonLanguage());
