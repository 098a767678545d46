/** Public surface of the rerun feature. */
export { RerunAction, type RerunActionProps } from './RerunAction';
export { RerunDialog, type RerunDialogProps } from './RerunDialog';
export { useRerunFromHere } from './use-rerun-from-here';
export {
  buildRerunRequest,
  formProblem,
  preferredBundleChoice,
  type BundleChoice,
  type RerunForm,
  type RerunTarget,
} from './build-request';
