/**
 * The rerun dialog, loaded when it is first opened (or prepared ahead by the shell's prefetch):
 * a thread's turns show "Rerun from here" without fetching the dialog's bundle checks.
 */
import { lazy } from 'react';

export const preloadRerunDialog = () => import('./RerunDialog');

export const LazyRerunDialog = lazy(() => preloadRerunDialog().then((m) => ({ default: m.RerunDialog })));
