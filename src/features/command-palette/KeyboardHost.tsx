/**
 * Mount once: the palette, the shortcuts list and the one window key listener (an outside
 * system) that runs registered shortcuts. Ctrl/Cmd+K works everywhere, even while typing.
 */
import { useEffect, useMemo } from 'react';
import { detectMac } from '../../lib/keyboard';
import { CommandPalette } from './CommandPalette';
import { usePaletteStore } from './palette-store';
import {
  actionForKey,
  collectActions,
  useActionRegistry,
  useRegisterActions,
  type Action,
} from '../../domain/commands/registry';
import { ShortcutsDialog } from './ShortcutsDialog';

const isMac = detectMac();

export function KeyboardHost() {
  const own = useMemo<Action[]>(
    () => [
      {
        id: 'palette.open',
        title: 'Command palette',
        group: 'Help',
        shortcut: 'mod+k',
        run: () => usePaletteStore.getState().toggle('palette'),
      },
      {
        id: 'help.shortcuts',
        title: 'Keyboard shortcuts',
        group: 'Help',
        shortcut: '?',
        keywords: ['help', 'keys'],
        run: () => usePaletteStore.getState().show('shortcuts'),
      },
    ],
    [],
  );
  useRegisterActions('keyboard', own);

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const open = usePaletteStore.getState().open;
      const actions = collectActions(useActionRegistry.getState().sources);
      const action = actionForKey(e, actions, isMac);
      if (!action) return;
      // While a dialog is open only the palette toggle works (the dialog owns the keys).
      const dialogOpen =
        open !== null || document.querySelector('dialog[open], [role="dialog"][aria-modal="true"]') !== null;
      if (dialogOpen && action.id !== 'palette.open') return;
      e.preventDefault();
      action.run();
    };
    // Ctrl/Cmd+K is taken before an editor sees it (Monaco reads it as the start of a chord).
    const onPaletteKey = (e: KeyboardEvent) => {
      if (e.isComposing) return;
      const action = actionForKey(e, own, isMac);
      if (action?.id !== 'palette.open') return;
      e.preventDefault();
      e.stopPropagation();
      action.run();
    };
    window.addEventListener('keydown', onPaletteKey, true);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('keydown', onPaletteKey, true);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [own]);

  return (
    <>
      <CommandPalette />
      <ShortcutsDialog />
    </>
  );
}
