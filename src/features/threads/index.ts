export { ThreadList } from './ThreadList';
export { type NewThreadChoice } from './use-start-thread';
export { NewThreadForm, type NewThreadFormProps } from './NewThread';
