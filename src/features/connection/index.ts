/** Public surface of the connection feature. */
export {
  useConnectionStore,
  toApiConfig,
  connectionIdentity,
  DEFAULT_CONNECTION,
  selectAgentId,
  selectHasKey,
  type ConnectionSettings,
} from './connection-store';
export { ConnectionForm } from './ConnectionForm';
export { AgentPicker, type AgentChoice } from './AgentPicker';
export { ConnectionDialogButton } from './ConnectionDialog';
export { KeyPrompt } from './KeyPrompt';
export { ServiceStatus } from './ServiceStatus';
export { useKeyReady } from './use-key-ready';
