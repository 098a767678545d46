/** Public surface of the rerun feature. */
export { RerunAction, type RerunActionProps } from './RerunAction';
export { type RerunDialogProps } from './RerunDialog';
export { LazyRerunDialog, preloadRerunDialog } from './lazy-rerun-dialog';
export { type BundleChoice, type RerunForm, type RerunTarget } from './build-request';
