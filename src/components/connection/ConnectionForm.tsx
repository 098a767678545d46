/**
 * Connection settings, edited in place (the store is the form state). The key field is a password
 * input; it is kept in memory unless "Remember on this device" is ticked.
 */
import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useTestConnection } from '../../api/test-connection';
import { API_KEY_HEADERS, ORIGINS_SEEN } from '../../contract/api';
import { Button } from '../ui/Button';
import { inputClass, TextField } from '../ui/Field';
import { Spinner } from '../ui/Spinner';
import {
  toApiConfig,
  useConnectionStore,
  type ConnectionSettings,
} from '../../domain/connection/connection-store';

function ExtraHeaders() {
  const [headers, update] = useConnectionStore(useShallow((s) => [s.extraHeaders, s.update] as const));
  const set = (i: number, patch: Partial<{ name: string; value: string }>) =>
    update({ extraHeaders: headers.map((h, j) => (j === i ? { ...h, ...patch } : h)) });
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-xs font-medium text-zinc-600 dark:text-zinc-300">
        Extra headers (scope headers)
      </legend>
      {headers.map((h, i) => (
        <div key={i} className="flex gap-1">
          <input
            aria-label={`Header ${i + 1} name`}
            className={inputClass()}
            placeholder="x-aui-organization-id"
            value={h.name}
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <input
            aria-label={`Header ${i + 1} value`}
            className={inputClass()}
            value={h.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove header ${i + 1}`}
            onClick={() => update({ extraHeaders: headers.filter((_, j) => j !== i) })}
          >
            ×
          </Button>
        </div>
      ))}
      <div>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => update({ extraHeaders: [...headers, { name: '', value: '' }] })}
        >
          Add header
        </Button>
      </div>
    </fieldset>
  );
}

export function ConnectionForm({ compact = false }: { compact?: boolean }) {
  const s = useConnectionStore(
    useShallow((st) => ({
      baseUrl: st.baseUrl,
      keyHeader: st.keyHeader,
      apiKey: st.apiKey,
      rememberKey: st.rememberKey,
      userId: st.userId,
      origin: st.origin,
      versionTag: st.versionTag,
      update: st.update,
    })),
  );
  const test = useTestConnection();
  const headerListId = useId();
  const originListId = useId();
  const set = (patch: Partial<ConnectionSettings>) => s.update(patch);
  const pageOrigin = typeof location === 'undefined' ? '' : location.origin;

  return (
    <div className="flex flex-col gap-3">
      <TextField
        label="Base URL"
        value={s.baseUrl}
        placeholder={pageOrigin}
        onChange={(e) => set({ baseUrl: e.target.value })}
        hint="Empty means this page's own server."
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField
          label="API key header"
          list={headerListId}
          value={s.keyHeader}
          onChange={(e) => set({ keyHeader: e.target.value })}
        />
        <datalist id={headerListId}>
          {API_KEY_HEADERS.map((h) => (
            <option key={h} value={h} />
          ))}
          <option value="x-api-key" />
          <option value="authorization" />
        </datalist>
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={s.apiKey}
          onChange={(e) => set({ apiKey: e.target.value })}
          hint="The bundled reference service accepts dev-key."
        />
      </div>
      <div className="flex flex-wrap gap-2 text-xs">
        <span className="text-zinc-500 dark:text-zinc-400">Header presets:</span>
        {API_KEY_HEADERS.map((h) => (
          <button
            key={h}
            type="button"
            onClick={() => set({ keyHeader: h })}
            className="rounded border border-zinc-300 px-1.5 dark:border-zinc-700"
            aria-pressed={s.keyHeader === h}
          >
            {h}
          </button>
        ))}
      </div>
      <label className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
        <input
          type="checkbox"
          checked={s.rememberKey}
          onChange={(e) => set({ rememberKey: e.target.checked })}
        />
        Remember the key on this device
      </label>
      {compact ? null : (
        <>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <TextField label="User id" value={s.userId} onChange={(e) => set({ userId: e.target.value })} />
            <TextField
              label="Origin"
              list={originListId}
              value={s.origin}
              onChange={(e) => set({ origin: e.target.value })}
            />
            <datalist id={originListId}>
              {ORIGINS_SEEN.map((o) => (
                <option key={o} value={o} />
              ))}
            </datalist>
          </div>
          <ExtraHeaders />
        </>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          onClick={() => test.mutate(toApiConfig(useConnectionStore.getState()))}
          disabled={test.isPending}
        >
          Test connection
        </Button>
        {test.isPending ? <Spinner label="Testing the connection" /> : null}
        {test.data ? (
          <p
            role="status"
            className={
              test.data.ok
                ? 'text-sm text-emerald-700 dark:text-emerald-400'
                : 'text-sm text-red-700 dark:text-red-400'
            }
          >
            {test.data.message}
          </p>
        ) : null}
      </div>
    </div>
  );
}
