/** Public surface of what if / why not: the panel, in a chunk of its own (render inside <Suspense>). */
import { lazy } from 'react';
export type { WhatIfPanelProps } from './WhatIfPanel';
export const LazyWhatIfPanel = lazy(() => import('./WhatIfPanel'));
