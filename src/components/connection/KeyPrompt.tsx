/**
 * A one-line prompt for the API key, shown while none is set (e.g. after a reload without
 * "remember", or a compare link opened in a browser that has no key). The key is applied whole,
 * on Enter or with the button: typing never sends a partial key to the service.
 */
import { useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Button } from '../ui/Button';
import { inputClass } from '../ui/Field';
import { useConnectionStore } from '../../domain/connection/connection-store';

export function KeyPrompt() {
  const [apiKey, keyHeader, update] = useConnectionStore(
    useShallow((s) => [s.apiKey, s.keyHeader, s.update] as const),
  );
  const [typed, setTyped] = useState('');
  if (apiKey) return null;
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const key = typed.trim();
    if (key) update({ apiKey: key });
  };
  return (
    <form
      onSubmit={apply}
      aria-label="API key needed"
      className="flex flex-wrap items-center gap-2 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <label htmlFor="key-prompt" className="font-medium">
        API key
      </label>
      <input
        id="key-prompt"
        type="password"
        autoComplete="off"
        className={inputClass('h-8 w-full max-w-xs text-sm')}
        placeholder={`sent as ${keyHeader}`}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <Button size="sm" variant="primary" type="submit" disabled={!typed.trim()}>
        Use this key
      </Button>
      <span className="text-xs opacity-80">
        No key is set: the service will refuse requests. Press Enter or Use this key when it is complete. It
        is kept in memory unless you choose to remember it in Connection settings.
      </span>
    </form>
  );
}
