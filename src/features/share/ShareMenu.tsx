/** The header's share controls: copy the trace link, open the share dialog, import a file. */
import { Button } from '../../components/ui/Button';
import { usePassingStatus } from '../../components/ui/use-passing-status';
import { copyText } from './files';
import { pickImportFile } from './ImportDrop';
import { traceLinkFor, type ShareTarget } from './share-target';
import { shareView } from './share-view';

export function ShareMenu({ target }: { target: ShareTarget | undefined }) {
  const openDialog = shareView.useView((s) => s.openDialog);
  const [status, setStatus] = usePassingStatus();
  return (
    <div className="flex items-center gap-1">
      <span role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
        {status}
      </span>
      <Button
        size="sm"
        variant="ghost"
        disabled={!target}
        title={target ? 'Copy a link to this thread, turn and node (no key inside)' : 'Open a thread first'}
        onClick={() => {
          if (!target) return;
          void copyText(traceLinkFor(target)).then((ok) =>
            setStatus(ok ? 'Link copied' : 'Copy failed: use Share…'),
          );
        }}
      >
        Copy link
      </Button>
      <Button size="sm" variant="ghost" disabled={!target} onClick={openDialog} aria-haspopup="dialog">
        Share…
      </Button>
      <Button size="sm" variant="ghost" onClick={pickImportFile}>
        Import…
      </Button>
    </div>
  );
}
