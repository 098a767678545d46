/**
 * Opening a trace link without a key: links carry identifiers only, so the viewer is asked for
 * their own key (the connection form) before the thread loads. When the link names another
 * server than the one in use, it says so and switches only when asked (a link never silently
 * points the app, and the key typed next, at a server).
 */
import { useShallow } from 'zustand/react/shallow';
import { Button } from '../../components/ui/Button';
import { Modal } from '../../components/ui/Modal';
import { ConnectionForm } from '../../components/connection/ConnectionForm';
import { useConnectionStore } from '../../domain/connection/connection-store';
import { normalizeServer, serverMismatch } from './links';

export interface LinkGateProps {
  open: boolean;
  taskId: string;
  turnNumber?: number | undefined;
  server?: string | undefined;
  onDone: () => void;
}

export function LinkGate({ open, taskId, server, onDone }: LinkGateProps) {
  const { hasKey, baseUrl, update } = useConnectionStore(
    useShallow((s) => ({ hasKey: s.apiKey.length > 0, baseUrl: s.baseUrl, update: s.update })),
  );
  const origin = location.origin;
  const linkServer = normalizeServer(server, origin);
  const mismatch = serverMismatch(server, baseUrl, origin);
  return (
    <Modal
      open={open}
      onClose={onDone}
      label="Open a shared thread"
      className="w-[min(40rem,calc(100vw-2rem))]"
    >
      <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 className="text-sm font-semibold">Open a shared thread</h2>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Close
        </Button>
      </div>
      <div className="flex max-h-[75vh] flex-col gap-3 overflow-y-auto p-4">
        <p className="text-sm">
          This link opens thread <code className="font-mono text-xs">{taskId}</code>. Links carry no key:
          enter your own API key for {linkServer ?? 'this server'} to see it.
        </p>
        {mismatch ? (
          <div
            role="alert"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
          >
            <p>
              The thread lives on <strong>{linkServer ?? origin}</strong>, but you are connected to{' '}
              <strong>{normalizeServer(baseUrl, origin) ?? origin}</strong>. Your key is sent to the server
              you connect to: switch only if you trust it.
            </p>
            <Button size="sm" className="mt-2" onClick={() => update({ baseUrl: linkServer ?? '' })}>
              Use {linkServer ?? 'this server'}
            </Button>
          </div>
        ) : null}
        <ConnectionForm compact />
        <div>
          <Button variant="primary" onClick={onDone} disabled={!hasKey}>
            Open the thread
          </Button>
        </div>
      </div>
    </Modal>
  );
}
