/** Public surface of the command palette: the action registry features contribute to, and the host. */
export { registerActions, useRegisterActions, type Action, type ActionGroup } from './registry';
export { usePaletteStore } from './palette-store';
export { KeyboardHost } from './KeyboardHost';
export { Modal } from './Modal';
