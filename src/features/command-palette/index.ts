export { usePaletteStore } from './palette-store';
export { KeyboardHost } from './KeyboardHost';
