export { KeyboardHost } from './KeyboardHost';
