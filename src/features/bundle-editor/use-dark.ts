/** Whether the page is in dark mode (the `dark` class on <html>), following changes. */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  if (typeof MutationObserver === 'undefined' || typeof document === 'undefined') return () => {};
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

const isDark = () => typeof document !== 'undefined' && document.documentElement.classList.contains('dark');

export function useDarkMode(): boolean {
  return useSyncExternalStore(subscribe, isDark, () => false);
}
