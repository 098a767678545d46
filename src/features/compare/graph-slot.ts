/**
 * The trace graph drawn for each side of a compared row. Compare does not import the trace graph:
 * the shell hands it in (app/feature-slots.tsx), so the features stay side by side.
 */
import { createContext, type ReactNode } from 'react';
import type { TolerantTrace } from '../../contract/trace';

export interface CompareGraphProps {
  trace: TolerantTrace;
  selectedNodeId: string | undefined;
  onSelectNode: (nodeId: string | undefined) => void;
  highlight?: Record<string, 'added' | 'removed' | 'changed'> | undefined;
  label?: string;
}

export const CompareGraphSlot = createContext<((props: CompareGraphProps) => ReactNode) | null>(null);
