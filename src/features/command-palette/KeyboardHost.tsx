/**
 * Mount once: the palette, the shortcuts list and the one window key listener (an outside
 * system) that runs registered shortcuts. Ctrl/Cmd+K works everywhere, even while typing. Which
 * of the two dialogs is open is this host's own view state.
 */
import { useEffect, useMemo } from 'react';
import { detectMac } from '../../lib/keyboard';
import { CommandPalette } from './CommandPalette';
import { paletteView } from './palette-store';
import { anyDialogOpen } from '../../components/ui/open-dialogs';
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
  return (
    <paletteView.Provider>
      <KeyboardListener />
      <CommandPalette />
      <ShortcutsDialog />
    </paletteView.Provider>
  );
}

function KeyboardListener() {
  const palette = paletteView.useViewApi();
  const own = useMemo<Action[]>(
    () => [
      {
        id: 'palette.open',
        title: 'Command palette',
        group: 'Help',
        shortcut: 'mod+k',
        run: () => palette.getState().toggle('palette'),
      },
      {
        id: 'help.shortcuts',
        title: 'Keyboard shortcuts',
        group: 'Help',
        shortcut: '?',
        keywords: ['help', 'keys'],
        run: () => palette.getState().show('shortcuts'),
      },
    ],
    [palette],
  );
  useRegisterActions('keyboard', own);

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const actions = collectActions(useActionRegistry.getState().sources);
      const action = actionForKey(e, actions, isMac);
      if (!action) return;
      // While a dialog is open only the palette toggle works (the dialog owns the keys).
      if (anyDialogOpen() && action.id !== 'palette.open') return;
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

  return null;
}
