/** Public surface of the threads feature. */
export {
  useThreadsStore,
  sortThreads,
  selectThread,
  selectUpsertThread,
  type ThreadRecord,
  type ThreadUpsert,
} from './threads-store';
export {
  AGENTS_OWN,
  branchRunConfig,
  bundleLabel,
  describeRun,
  pinLabel,
  runConfigOf,
  sameRunConfig,
  withDraft,
  type DraftUse,
  type RerunRan,
  type RunConfig,
} from './run-config';
export {
  recordLocalTurn,
  useLocalTurns,
  localTurnsQueryOptions,
  localKeys,
  type LocalTurn,
} from './local-turns';
export { ThreadList } from './ThreadList';
export { useStartThread, type NewThreadChoice } from './use-start-thread';
export { NewThreadForm, type NewThreadFormProps } from './NewThread';
