// Reads only what it is given (a shared document feeds it from the file).
export { BranchTreeView, type TraceListState } from './BranchTreeView';
