/** Public surface of the bundle editor. Monaco is never imported from here (it loads lazily). */
export { BundleEditorPanel, type BundleEditorPanelProps } from './BundleEditorPanel';
export {
  useActiveBundle,
  useActiveBundleStatus,
  useDraftSendState,
  bundleForRequest,
  BundleBlockedError,
  isBundleBlockedError,
  rememberBundle,
  recallBundle,
  type ActiveBundle,
} from './active-bundle';
export { useBundleDraftStore } from './draft-store';
export { bundleText } from './analysis';
export { shortBundleHash } from './short-hash';
export { LocalBundleBadge } from './LocalBundleBadge';
export { LazyBundleDiff } from './LazyBundleDiff';
