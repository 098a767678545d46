/**
 * The what-if panel of the trace details. The trace graph does not import it: the shell hands it
 * in (app/feature-slots.tsx), so the features stay side by side.
 */
import { createContext, type ReactNode } from 'react';

export interface WhatIfSlotProps {
  taskId: string;
  interactionId: string;
  onChangedNodes: (nodes: Record<string, 'changed'> | undefined) => void;
  openTab?: ((id: string) => void) | undefined;
}

export const WhatIfPanelSlot = createContext<((props: WhatIfSlotProps) => ReactNode) | null>(null);
