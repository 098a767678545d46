/** The connection settings in the app's modal dialog; the shell opens it (header button, palette). */
import { Button } from '../../components/ui/Button';
import { Modal } from '../../components/ui/Modal';
import { ConnectionForm } from '../../components/connection/ConnectionForm';

export function ConnectionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      label="Connection settings"
      className="w-[min(40rem,calc(100vw-2rem))]"
    >
      <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 className="text-sm font-semibold">Connection settings</h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
      <div className="max-h-[75vh] overflow-y-auto p-4">
        <ConnectionForm />
      </div>
    </Modal>
  );
}
