/** Public surface of the branches feature. */
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
export { BranchTree, type BranchTreeProps } from './BranchTree';
export { useLineage, type Lineage } from './use-lineage';
export { decisionsAlong } from './decisions';
