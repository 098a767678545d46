/**
 * What a what-if becomes in the live app: a branch (the rerun dialog with a message stating its
 * values) or a test case of the thread's agent, both drawn by the debug loop's chunk.
 */
import { lazy, Suspense } from 'react';
import type { BranchRequest, SaveAsTestRequest } from '../features/what-if';
import type { WhatIfActions } from './feature-slots';

const debugLoop = () => import('./debug-loop');
const LazyWhatIfBranch = lazy(() => debugLoop().then((m) => ({ default: m.WhatIfBranch })));
const LazyWhatIfTestAction = lazy(() => debugLoop().then((m) => ({ default: m.WhatIfTestAction })));

export const whatIfActions: WhatIfActions = {
  renderBranch: (request: BranchRequest) => (
    <Suspense fallback={null}>
      <LazyWhatIfBranch {...request} />
    </Suspense>
  ),
  renderSaveAsTest: (request: SaveAsTestRequest) => (
    <Suspense fallback={null}>
      <LazyWhatIfTestAction {...request} />
    </Suspense>
  ),
};
