import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

const isDark = () => document.documentElement.classList.contains('dark');

/** Whether the `dark` class is on <html> (the theme in force), kept in sync. */
export function useDarkClass(): boolean {
  return useSyncExternalStore(subscribe, isDark, () => false);
}
