import { setThemeChoice, useThemeChoice } from '../features/theme';
import type { ThemeChoice } from '../lib/theme';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<ThemeChoice, string> = {
  system: 'System theme',
  light: 'Light theme',
  dark: 'Dark theme',
};
const ICON: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

export function ThemeToggle() {
  const choice = useThemeChoice();
  return (
    <button
      type="button"
      aria-label={`${LABEL[choice]} (switch to ${LABEL[NEXT[choice]].toLowerCase()})`}
      title={LABEL[choice]}
      onClick={() => setThemeChoice(NEXT[choice])}
      className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
    >
      {ICON[choice]}
    </button>
  );
}
