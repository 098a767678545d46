/**
 * Public surface of what if / why not: the panel, the strip above the graph and the editor on a
 * value's node, each in a lazily loaded chunk (render inside <Suspense>), and the turn's one
 * what-if (a small store: which turn has edits).
 */
import { lazy } from 'react';
export type { WhatIfPanelProps } from './WhatIfPanel';
export type { WhatIfStripProps, BranchRequest, SaveAsTestRequest } from './WhatIfStrip';
export type { NodeValueEditorProps } from './NodeValueEditor';
export { useHasWhatIf } from './what-if-store';
export const LazyWhatIfPanel = lazy(() => import('./WhatIfPanel'));
export const LazyWhatIfStrip = lazy(() => import('./WhatIfStrip'));
export const LazyNodeValueEditor = lazy(() => import('./NodeValueEditor'));
