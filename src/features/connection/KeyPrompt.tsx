/** A one-line prompt for the API key, shown while none is set (e.g. after a reload without "remember"). */
import { useShallow } from 'zustand/react/shallow';
import { inputClass } from '../../components/ui/Field';
import { useConnectionStore } from './connection-store';

export function KeyPrompt() {
  const [apiKey, keyHeader, update] = useConnectionStore(
    useShallow((s) => [s.apiKey, s.keyHeader, s.update] as const),
  );
  if (apiKey) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
      <label htmlFor="key-prompt" className="font-medium">
        API key
      </label>
      <input
        id="key-prompt"
        type="password"
        autoComplete="off"
        className={inputClass('h-8 w-full max-w-xs text-sm')}
        placeholder={`sent as ${keyHeader}`}
        onChange={(e) => update({ apiKey: e.target.value })}
      />
      <span className="text-xs opacity-80">
        No key is set: the service will refuse requests. It is kept in memory unless you choose to remember it
        in Connection settings.
      </span>
    </div>
  );
}
