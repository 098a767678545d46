/**
 * The inspector tabs that read only what they are given (no service, no editor): the live
 * workspace shows them first, and a read-only copy (a snapshot, an imported file, a one-file HTML
 * snapshot) shows only them. Kept apart from the registry in extensions.tsx so that a one-file
 * snapshot, which inlines every chunk it can reach, does not reach the debug loop.
 */
import { lazy } from 'react';
import type { InspectorTab } from './extensions';

export const readOnlyTabs: InspectorTab[] = [
  { id: 'trace', label: 'Trace', Panel: lazy(() => import('../features/trace-graph/TracePanel')) },
  { id: 'thread', label: 'Thread', Panel: lazy(() => import('../features/thread-view/ThreadView')) },
];
