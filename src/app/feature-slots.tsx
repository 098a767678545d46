/**
 * The few places one feature shows another's view (compare draws trace graphs, the trace details
 * show the what-if panel): the features declare a slot, the shell fills it here. Both views stay
 * in chunks of their own.
 */
import { lazy, type ReactNode } from 'react';
import { CompareGraphSlot, type CompareGraphProps } from '../features/compare/graph-slot';
import { WhatIfPanelSlot, type WhatIfSlotProps } from '../features/trace-graph/what-if-slot';
import { LazyWhatIfPanel } from '../features/what-if';

const LazyTraceGraph = lazy(() => import('../features/trace-graph/TraceGraph'));

const renderGraph = (props: CompareGraphProps) => <LazyTraceGraph {...props} />;
const renderWhatIf = (props: WhatIfSlotProps) => <LazyWhatIfPanel {...props} />;

export function FeatureSlots({ children }: { children: ReactNode }) {
  return (
    <CompareGraphSlot.Provider value={renderGraph}>
      <WhatIfPanelSlot.Provider value={renderWhatIf}>{children}</WhatIfPanelSlot.Provider>
    </CompareGraphSlot.Provider>
  );
}
