/** The connection settings in a modal dialog (native <dialog>: focus trap and Escape for free). */
import { useRef, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { ConnectionForm } from '../../components/connection/ConnectionForm';

export function ConnectionDialogButton({ label }: { label: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
          ref.current?.showModal();
        }}
      >
        {label}
      </Button>
      <dialog
        ref={ref}
        aria-label="Connection settings"
        onClose={() => setOpen(false)}
        className="m-auto w-[min(40rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
      >
        <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
          <h2 className="text-sm font-semibold">Connection settings</h2>
          <Button size="sm" variant="ghost" onClick={() => ref.current?.close()}>
            Close
          </Button>
        </div>
        <div className="max-h-[75vh] overflow-y-auto p-4">{open ? <ConnectionForm /> : null}</div>
      </dialog>
    </>
  );
}
