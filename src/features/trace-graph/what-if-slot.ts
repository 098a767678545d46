/**
 * The what-if views of the trace: the panel of the trace details, the strip above the graph and
 * the editor on a value's node. The trace graph does not import them: the shell hands them in
 * (app/feature-slots.tsx), so the features stay side by side. Without the slot (a snapshot) the
 * trace is shown without what-if.
 */
import { createContext, type ReactNode } from 'react';

type ChangedNodes = (nodes: Record<string, 'changed'> | undefined) => void;

export interface WhatIfSlotProps {
  taskId: string;
  interactionId: string;
  openTab?: ((id: string) => void) | undefined;
}

export interface WhatIfStripSlotProps {
  taskId: string;
  interactionId: string;
  /** The turn's number in its thread (1-based). */
  turnNumber: number;
  onChangedNodes: ChangedNodes;
}

export interface WhatIfViews {
  panel: (props: WhatIfSlotProps) => ReactNode;
  strip: (props: WhatIfStripSlotProps) => ReactNode;
  /** The editor of a value's node (`param` or `entity`, by its label). */
  nodeEditor: (props: {
    taskId: string;
    interactionId: string;
    node: { kind: string; label: string };
  }) => ReactNode;
  /** True while the turn has a what-if (a hook: the slot's value never changes). */
  useHasWhatIf: (taskId: string | undefined, interactionId: string) => boolean;
}

export const WhatIfSlot = createContext<WhatIfViews | null>(null);
