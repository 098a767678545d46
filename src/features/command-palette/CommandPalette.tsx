/**
 * The command palette (Ctrl/Cmd+K): every registered action, fuzzy-filtered, run with Enter.
 * A combobox over a listbox: ↑/↓ (and Ctrl+N/P) move, Home/End jump, Enter runs, Escape closes.
 */
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { cx } from '../../lib/format';
import { detectMac, formatShortcut } from '../../lib/keyboard';
import { Modal } from '../../components/ui/Modal';
import { afterDialogsClose } from '../../components/ui/open-dialogs';
import { paletteView } from './palette-store';
import {
  collectActions,
  paletteResults,
  selectActions,
  useActionRegistry,
  type Action,
} from '../../domain/commands/registry';

const isMac = detectMac();

function Highlighted({ text, positions }: { text: string; positions: readonly number[] | undefined }) {
  if (!positions?.length) return <>{text}</>;
  const set = new Set(positions);
  return (
    <>
      {[...text].map((ch, i) =>
        set.has(i) ? (
          <mark key={i} className="bg-transparent font-semibold text-indigo-700 dark:text-indigo-300">
            {ch}
          </mark>
        ) : (
          <span key={i}>{ch}</span>
        ),
      )}
    </>
  );
}

function PaletteBody({ onRun }: { onRun: (a: Action) => void }) {
  const sources = useActionRegistry(selectActions);
  const actions = useMemo(() => collectActions(sources), [sources]);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const results = useMemo(() => paletteResults(query, actions), [query, actions]);
  const listId = useId();
  const optionId = (i: number) => `${listId}-opt-${i}`;
  const current = Math.min(active, Math.max(results.length - 1, 0));

  const run = (i: number) => {
    const r = results[i];
    if (r && r.action.enabled !== false) onRun(r.action);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = results.length;
    if (n === 0) return;
    if (e.key === 'ArrowDown' || (e.ctrlKey && e.key === 'n')) setActive((current + 1) % n);
    else if (e.key === 'ArrowUp' || (e.ctrlKey && e.key === 'p')) setActive((current - 1 + n) % n);
    else if (e.key === 'Home') setActive(0);
    else if (e.key === 'End') setActive(n - 1);
    else if (e.key === 'Enter') run(current);
    else return;
    e.preventDefault();
  };

  return (
    <div className="flex max-h-[70vh] flex-col">
      <input
        autoFocus
        role="combobox"
        aria-label="Search commands"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={results.length ? optionId(current) : undefined}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        placeholder="Type a command…"
        className="h-12 w-full border-b border-zinc-200 bg-transparent px-4 text-sm outline-none dark:border-zinc-800"
      />
      <ul id={listId} role="listbox" aria-label="Commands" className="min-h-0 flex-1 overflow-y-auto p-1">
        {results.length === 0 ? (
          <li role="presentation" className="px-3 py-6 text-center text-sm text-zinc-500">
            No command matches “{query}”.
          </li>
        ) : null}
        {results.map((r, i) => {
          const disabled = r.action.enabled === false;
          return (
            <li
              key={r.action.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              aria-disabled={disabled || undefined}
              onMouseMove={() => setActive(i)}
              onClick={() => run(i)}
              className={cx(
                'flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm',
                i === current ? 'bg-indigo-50 dark:bg-indigo-950/60' : '',
                disabled ? 'cursor-not-allowed opacity-50' : '',
              )}
            >
              <span className="w-16 shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{r.action.group}</span>
              <span className="min-w-0 flex-1 truncate">
                <Highlighted text={r.action.title} positions={r.match?.positions} />
                {disabled && r.action.hint ? (
                  <span className="ml-2 text-xs text-zinc-500">— {r.action.hint}</span>
                ) : null}
              </span>
              {r.action.shortcut ? (
                <kbd className="rounded border border-zinc-300 px-1.5 font-mono text-xs text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
                  {formatShortcut(r.action.shortcut, isMac)}
                </kbd>
              ) : null}
            </li>
          );
        })}
      </ul>
      <p className="border-t border-zinc-200 px-4 py-2 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
        ↑↓ to move · Enter to run · Esc to close · ? lists shortcuts
      </p>
    </div>
  );
}

export function CommandPalette() {
  const open = paletteView.useView((s) => s.open === 'palette');
  const close = paletteView.useView((s) => s.close);
  return (
    <Modal
      open={open}
      onClose={close}
      label="Command palette"
      className="mt-[12vh] mb-auto w-[min(36rem,calc(100vw-2rem))]"
    >
      <PaletteBody
        onRun={(action) => {
          // The action runs once the dialog has closed and given focus back, so an action that
          // moves focus (to the message box, the editor) keeps it.
          afterDialogsClose(action.run);
          close();
        }}
      />
    </Modal>
  );
}
