/**
 * The few places one feature shows another's view (compare draws trace graphs, the trace shows
 * the what-if views, and a what-if opens the rerun dialog or saves a test case): the features
 * declare a slot, the shell fills it here. Each view stays in a chunk of its own; the rerun
 * dialog and the test case come from the debug loop's chunk.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { CompareGraphSlot, type CompareGraphProps } from '../features/compare/graph-slot';
import { WhatIfSlot, type WhatIfViews } from '../features/trace-graph/what-if-slot';
import {
  LazyNodeValueEditor,
  LazyWhatIfPanel,
  LazyWhatIfStrip,
  useHasWhatIf,
  type BranchRequest,
  type SaveAsTestRequest,
} from '../features/what-if';

const LazyTraceGraph = lazy(() => import('../features/trace-graph/TraceGraph'));
const debugLoop = () => import('./debug-loop');
const LazyWhatIfBranch = lazy(() => debugLoop().then((m) => ({ default: m.WhatIfBranch })));
const LazyWhatIfTestAction = lazy(() => debugLoop().then((m) => ({ default: m.WhatIfTestAction })));

const renderGraph = (props: CompareGraphProps) => <LazyTraceGraph {...props} />;

const renderBranch = (request: BranchRequest) => (
  <Suspense fallback={null}>
    <LazyWhatIfBranch {...request} />
  </Suspense>
);

const renderSaveAsTest = (request: SaveAsTestRequest) => (
  <Suspense fallback={null}>
    <LazyWhatIfTestAction {...request} />
  </Suspense>
);

const whatIfViews: WhatIfViews = {
  panel: (props) => <LazyWhatIfPanel {...props} />,
  strip: (props) => (
    <LazyWhatIfStrip {...props} renderBranch={renderBranch} renderSaveAsTest={renderSaveAsTest} />
  ),
  nodeEditor: (props) => <LazyNodeValueEditor {...props} />,
  useHasWhatIf,
};

export function FeatureSlots({ children }: { children: ReactNode }) {
  return (
    <CompareGraphSlot.Provider value={renderGraph}>
      <WhatIfSlot.Provider value={whatIfViews}>{children}</WhatIfSlot.Provider>
    </CompareGraphSlot.Provider>
  );
}
