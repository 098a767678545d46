/** The share feature's palette actions, contributed while the workspace is mounted. */
import { useMemo } from 'react';
import { useRegisterActions, type Action } from '../../domain/commands/registry';
import { copyText } from './files';
import { pickImportFile } from './ImportDrop';
import { traceLinkFor, type ShareTarget } from './share-target';
import { shareView } from './share-view';

export function useShareActions(target: ShareTarget | undefined): void {
  const view = shareView.useViewApi();
  const actions = useMemo<Action[]>(() => {
    const off = target ? {} : { enabled: false, hint: 'Open a thread first' };
    const openDialog = () => view.getState().openDialog();
    return [
      {
        id: 'share.link',
        title: 'Copy trace link',
        group: 'Share',
        keywords: ['url', 'share', 'permalink'],
        ...off,
        run: () => target && void copyText(traceLinkFor(target)),
      },
      {
        id: 'share.snapshot',
        title: 'Create a snapshot link…',
        group: 'Share',
        keywords: ['share', 'read-only', 'mask'],
        ...off,
        run: openDialog,
      },
      {
        id: 'share.export',
        title: 'Export the thread (JSON, Markdown)…',
        group: 'Share',
        keywords: ['download', 'file', 'markdown', 'branches'],
        ...off,
        run: openDialog,
      },
      {
        id: 'share.html',
        title: 'Download as one HTML file…',
        group: 'Share',
        keywords: ['offline', 'file', 'self-contained', 'snapshot'],
        ...off,
        run: openDialog,
      },
      {
        id: 'share.import',
        title: 'Import a Threadline file…',
        group: 'Share',
        keywords: ['open', 'upload', 'file'],
        run: pickImportFile,
      },
    ];
  }, [target, view]);
  useRegisterActions('share', actions);
}
