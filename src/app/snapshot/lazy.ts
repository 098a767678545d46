/** The read-only views of a shared document, each in a chunk of its own (render inside <Suspense>). */
import { lazy } from 'react';
export const LazySnapshotPage = lazy(() => import('./SnapshotPage'));
export const LazySnapshotView = lazy(() => import('./SnapshotView'));
