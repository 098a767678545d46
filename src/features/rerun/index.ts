/** Public surface of the rerun feature. */
export { RerunAction, type RerunActionProps } from './RerunAction';
export { RerunDialog, type RerunDialogProps } from './RerunDialog';
export { type BundleChoice, type RerunForm, type RerunTarget } from './build-request';
