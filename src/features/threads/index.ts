export { ThreadList } from './ThreadList';
export { useStartThread, type NewThreadChoice } from './use-start-thread';
export { NewThreadForm, type NewThreadFormProps } from './NewThread';
