export { ConnectionDialog } from './ConnectionDialog';
export { ServiceStatus } from './ServiceStatus';
