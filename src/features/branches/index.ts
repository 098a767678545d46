/**
 * Public surface of the branches feature. The tree view (`BranchTree.tsx`) is imported by the lazily
 * loaded debug loop directly: it reads bundles, and this index is on the first screen's path.
 */
export {
  buildBranchTree,
  flattenTree,
  pathTo,
  recordsFromServer,
  recordFromLink,
  rootOf,
  textChanged,
  type BranchNode,
  type LineageRecord,
} from './lineage';
export { useLineageStore, selectLineageRecords, selectLineageHydrated, lineageOf } from './lineage-store';
export { useLineage, type Lineage } from './use-lineage';
export { decisionsAlong } from './decisions';
// Reads only what it is given (a shared document feeds it from the file).
export { BranchTreeView, type TraceListState } from './BranchTreeView';
