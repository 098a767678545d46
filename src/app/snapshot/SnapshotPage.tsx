/** A snapshot link opened: decode the fragment (here, in a lazy chunk with the codec) and show it. */
import { useMemo } from 'react';
import { Button } from '../../components/ui/Button';
import { decodeSnapshot } from '../../features/share/codec';
import SnapshotView, { type SnapshotViewProps } from './SnapshotView';

export default function SnapshotPage({
  payload,
  ...rest
}: Omit<SnapshotViewProps, 'doc' | 'onClose'> & { payload: string; onClose: () => void }) {
  const result = useMemo(() => {
    try {
      return { doc: decodeSnapshot(payload) };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, [payload]);
  if ('error' in result) {
    return (
      <main className="flex h-dvh items-center justify-center bg-zinc-50 p-6 dark:bg-zinc-950">
        <div
          role="alert"
          className="max-w-lg rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          <p className="font-semibold">This snapshot cannot be opened</p>
          <p className="mt-1">{result.error}</p>
          <Button className="mt-3" onClick={rest.onClose}>
            Go to the workspace
          </Button>
        </div>
      </main>
    );
  }
  return <SnapshotView doc={result.doc} {...rest} />;
}
