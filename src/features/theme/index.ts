/** Public surface of the theme feature (lib/theme applies and stores the choice). */
export { useThemeChoice, setThemeChoice } from './theme-store';
export { registerThemeActions } from './actions';
