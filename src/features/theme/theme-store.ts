/**
 * The theme choice as a tiny external store over lib/theme (the one way themes are read, saved
 * and applied), so every control showing it (the header toggle, the palette) agrees, and a
 * choice made in another tab is followed.
 */
import { useSyncExternalStore } from 'react';
import { applyTheme, readThemeChoice, saveThemeChoice, type ThemeChoice } from '../../lib/theme';

const listeners = new Set<() => void>();
let current: ThemeChoice | undefined;

function snapshot(): ThemeChoice {
  current ??= readThemeChoice();
  return current;
}

function notify() {
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab saved a choice (any storage change re-reads it: cheap, and no key to keep in sync).
  const onStorage = () => {
    const next = readThemeChoice();
    if (next === current) return;
    current = next;
    applyTheme(next);
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function setThemeChoice(choice: ThemeChoice): void {
  saveThemeChoice(choice);
  current = choice;
  notify();
}

export function getThemeChoice(): ThemeChoice {
  return snapshot();
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, snapshot, () => 'system' as const);
}

export const THEME_LABEL: Record<ThemeChoice, string> = {
  system: 'System theme',
  light: 'Light theme',
  dark: 'Dark theme',
};
