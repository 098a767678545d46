/** "?": every keyboard shortcut, the fixed ones and those of the registered actions. */
import { useMemo } from 'react';
import { Button } from '../../components/ui/Button';
import { detectMac, formatShortcut } from '../../lib/keyboard';
import { Modal } from '../../components/ui/Modal';
import { paletteView } from './palette-store';
import { collectActions, selectActions, useActionRegistry } from '../../domain/commands/registry';

const isMac = detectMac();

/** Shortcuts handled by components themselves (the composer, the graph, dialogs). */
const FIXED: Array<{ keys: string; what: string }> = [
  { keys: formatShortcut('mod+enter', isMac), what: 'Send the message (in the message box)' },
  { keys: '↑', what: 'Recall your last message (in an empty message box)' },
  { keys: '← ↑ → ↓', what: 'Move between nodes (in the trace graph)' },
  { keys: 'Esc', what: 'Close a dialog; clear the graph selection' },
];

export function ShortcutsDialog() {
  const open = paletteView.useView((s) => s.open === 'shortcuts');
  const close = paletteView.useView((s) => s.close);
  const sources = useActionRegistry(selectActions);
  const rows = useMemo(
    () => [
      ...collectActions(sources)
        .filter((a) => a.shortcut)
        .map((a) => ({ keys: formatShortcut(a.shortcut!, isMac), what: a.title })),
      ...FIXED,
    ],
    [sources],
  );
  return (
    <Modal open={open} onClose={close} label="Keyboard shortcuts" className="w-[min(32rem,calc(100vw-2rem))]">
      <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 className="text-sm font-semibold">Keyboard shortcuts</h2>
        <Button size="sm" variant="ghost" onClick={close} autoFocus>
          Close
        </Button>
      </div>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Keyboard shortcuts</caption>
        <tbody>
          {rows.map((r) => (
            <tr
              key={`${r.keys}:${r.what}`}
              className="border-b border-zinc-100 last:border-0 dark:border-zinc-900"
            >
              <td className="w-36 px-4 py-2">
                <kbd className="rounded border border-zinc-300 px-1.5 font-mono text-xs dark:border-zinc-700">
                  {r.keys}
                </kbd>
              </td>
              <td className="px-4 py-2">{r.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="px-4 py-2 text-xs text-zinc-500 dark:text-zinc-400">
        Single-key shortcuts are off while you type in a field or the editor.
      </p>
    </Modal>
  );
}
