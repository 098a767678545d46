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
  /** The thread's turns (a turn of a deployed service is predicted from the earlier ones). */
  turns?: readonly unknown[] | undefined;
  openTab?: ((id: string) => void) | undefined;
}

export interface WhatIfStripSlotProps {
  taskId: string;
  interactionId: string;
  turns?: readonly unknown[] | undefined;
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
    turns?: readonly unknown[] | undefined;
    node: { kind: string; label: string };
  }) => ReactNode;
  /** True while the turn has a what-if (a hook: the slot's value never changes). */
  useHasWhatIf: (taskId: string | undefined, interactionId: string) => boolean;
}

export const WhatIfSlot = createContext<WhatIfViews | null>(null);
