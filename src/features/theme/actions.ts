/** The theme's palette actions, registered once at start-up. */
import { registerActions } from '../../domain/commands/registry';
import type { ThemeChoice } from '../../lib/theme';
import { setThemeChoice, THEME_LABEL } from './theme-store';

const choices: ThemeChoice[] = ['light', 'dark', 'system'];

export function registerThemeActions(): () => void {
  return registerActions(
    'theme',
    choices.map((c) => ({
      id: `theme.${c}`,
      title: `Switch to ${THEME_LABEL[c].toLowerCase()}`,
      group: 'Theme' as const,
      keywords: ['appearance', 'colour', 'color', 'mode', c],
      run: () => setThemeChoice(c),
    })),
  );
}
