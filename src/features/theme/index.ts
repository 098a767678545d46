/** Public surface of the theme feature (lib/theme applies and stores the choice). */
export { useThemeChoice, setThemeChoice, getThemeChoice, THEME_LABEL, NEXT_THEME } from './theme-store';
export { registerThemeActions } from './actions';
