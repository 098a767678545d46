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
  recordLocalTurn,
  useLocalTurns,
  localTurnsQueryOptions,
  localKeys,
  type LocalTurn,
} from './local-turns';
export { ThreadList } from './ThreadList';
export { useStartThread } from './use-start-thread';
