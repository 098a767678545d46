/** Public surface of sharing: links, snapshots, files. The codec (fflate) loads lazily with its views. */
import { lazy } from 'react';
export { ShareMenu } from './ShareMenu';
export { LinkGate } from './LinkGate';
export { ImportDrop } from './ImportDrop';
export { useShareActions } from './ShareActions';
export { useShareStore } from './share-store';
export { ShareViewProvider, useShareDialogOpen } from './share-view';
export { snapshotPayloadFromHash } from './links';
export type { ShareTarget } from './share-target';
export type { ShareDocument } from './document';
export const LazyShareDialog = lazy(() => import('./ShareDialog'));
