/** Public surface of the compare feature. */
export { CompareMain } from './CompareMain';
export type { CompareViewProps } from './CompareView';
export { alignTurns, type AlignedRow, type Alignment, type CompareTurn } from './align';
export { diffTraces, highlightFor, countDifferences, type TraceDiff } from './trace-diff';
export { parseComparePair, formatComparePair, type ComparePair } from './pair';
