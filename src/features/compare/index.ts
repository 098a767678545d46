/** Public surface of the compare feature. */

export type { CompareViewProps } from './CompareView';
export { type AlignedRow, type Alignment, type CompareTurn } from './align';
export { type TraceDiff } from './trace-diff';
export { parseComparePair, formatComparePair, type ComparePair } from './pair';
// Read only what they are given (a shared document feeds them from the file).
export { CompareLayout, type CompareSide } from './CompareLayout';
export { SideSummary } from './RunsSummary';
export { toCompareTurns } from './turns';
