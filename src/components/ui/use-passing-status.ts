import { useCallback, useEffect, useState } from 'react';

/** How long a passing status ("Link copied") stays on screen when nothing else happens. */
export const PASSING_STATUS_MS = 4000;

/**
 * A short status that passes: shown by `show(text)`, gone after `ms` or at the user's next
 * action (a key press or a click anywhere), whichever comes first. Render it in a polite live
 * region (role="status") so a screen reader announces it without interrupting.
 */
export function usePassingStatus(ms = PASSING_STATUS_MS): [string | null, (text: string) => void] {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (text === null) return;
    // Sync with outside systems: a timer, and the document's next key press or click.
    const clear = () => setText(null);
    const timer = setTimeout(clear, ms);
    document.addEventListener('keydown', clear, { once: true, capture: true });
    document.addEventListener('pointerdown', clear, { once: true, capture: true });
    return () => {
      clearTimeout(timer);
      document.removeEventListener('keydown', clear, { capture: true });
      document.removeEventListener('pointerdown', clear, { capture: true });
    };
  }, [text, ms]);
  return [text, useCallback((next: string) => setText(next), [])];
}
