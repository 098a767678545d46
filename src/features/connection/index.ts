export { ConnectionDialogButton } from './ConnectionDialog';
export { ServiceStatus } from './ServiceStatus';
