/**
 * The inspector tabs that read only what they are given (no service, no editor): the live
 * workspace shows them first, and a read-only copy (a snapshot, an imported file, a one-file HTML
 * snapshot) shows only them. Kept apart from the registry in extensions.tsx so that a one-file
 * snapshot, which inlines every chunk it can reach, does not reach the debug loop.
 */
import { lazyComponent } from '../components/ui/lazy-component';
import type { InspectorTab } from './extensions';

const TraceTab = lazyComponent(() => import('../features/trace-graph/TracePanel'));
const ThreadTab = lazyComponent(() => import('../features/thread-view/ThreadView'));

export const readOnlyTabs: InspectorTab[] = [
  { id: 'trace', label: 'Trace', Panel: TraceTab },
  { id: 'thread', label: 'Thread', Panel: ThreadTab },
];

/** Loads the tabs' code ahead of their first showing (they then show without suspending). */
export const preloadReadOnlyTabs = () => Promise.all([TraceTab.preload(), ThreadTab.preload()]);
