import { useState } from 'react';
import { rawPreview, type UnreadField } from '../../contract/tolerant';
import { plural, toPrettyJson } from '../../lib/format';

/**
 * The fields of a turn that arrived in an unexpected shape (missing id, a number for a text, a
 * trace item that is not a trace...), each with what was actually sent; the full raw JSON on demand.
 */
export function UnreadFields({ fields }: { fields: readonly UnreadField[] }) {
  const [open, setOpen] = useState(false);
  if (fields.length === 0) return null;
  return (
    <details
      className="mt-2 rounded border border-amber-300 bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className="cursor-pointer">
        {plural(fields.length, 'field')} arrived in an unexpected shape: shown as absent or as sent
      </summary>
      {open ? (
        <ul aria-label="Fields in an unexpected shape" className="mt-1 flex flex-col gap-1">
          {fields.map((f, i) => (
            <li key={`${i}:${f.path}`}>
              <code className="font-semibold">{f.path || '(the whole item)'}</code>:{' '}
              {f.raw === undefined ? 'missing' : <code>{rawPreview(f.raw)}</code>}
              {(typeof f.raw === 'object' && f.raw !== null) || f.path === 'trace_info' ? (
                <pre
                  aria-label={`Raw JSON of ${f.path || 'the item'}`}
                  className="mt-1 max-h-60 overflow-auto rounded bg-white/70 p-1 font-mono dark:bg-zinc-950/70"
                >
                  {toPrettyJson(f.raw)}
                </pre>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
