/**
 * The few places one feature shows another's view (compare draws trace graphs, the trace shows
 * the what-if views): the features declare a slot, the shell fills it here. Each view stays in a
 * chunk of its own. What a what-if can become (a branch, a test case) is handed in by the live
 * app (`what-if-actions.tsx`); a read-only copy has neither, so it never reaches the debug loop.
 */
import { lazy, useMemo, type ReactNode } from 'react';
import { CompareGraphSlot, type CompareGraphProps } from '../features/compare/graph-slot';
import { WhatIfSlot, type WhatIfViews } from '../features/trace-graph/what-if-slot';
import {
  LazyNodeValueEditor,
  LazyWhatIfPanel,
  LazyWhatIfStrip,
  useHasWhatIf,
  type WhatIfStripProps,
} from '../features/what-if';

const LazyTraceGraph = lazy(() => import('../features/trace-graph/TraceGraph'));

const renderGraph = (props: CompareGraphProps) => <LazyTraceGraph {...props} />;

/** What the what-if strip offers beyond Reset: opening a branch, saving a test case. */
export type WhatIfActions = Pick<WhatIfStripProps, 'renderBranch' | 'renderSaveAsTest'>;

const NO_ACTIONS: WhatIfActions = {};

export function FeatureSlots({
  children,
  whatIfActions = NO_ACTIONS,
}: {
  children: ReactNode;
  /** A module constant: the slot's value must not change while the app runs. */
  whatIfActions?: WhatIfActions;
}) {
  const whatIfViews = useMemo<WhatIfViews>(
    () => ({
      panel: (props) => <LazyWhatIfPanel {...props} />,
      strip: (props) => <LazyWhatIfStrip {...props} {...whatIfActions} />,
      nodeEditor: (props) => <LazyNodeValueEditor {...props} />,
      useHasWhatIf,
    }),
    [whatIfActions],
  );
  return (
    <CompareGraphSlot.Provider value={renderGraph}>
      <WhatIfSlot.Provider value={whatIfViews}>{children}</WhatIfSlot.Provider>
    </CompareGraphSlot.Provider>
  );
}
