import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/ui/Spinner';
import type { CompareViewProps } from './CompareView';

const CompareView = lazy(() => import('./CompareView'));

/** The compare view, loaded on first use (it pulls in the graphs and the diff editor). */
export function CompareMain(props: CompareViewProps) {
  return (
    <Suspense
      fallback={
        <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
          <Spinner label="Loading the comparison" /> Loading the comparison…
        </div>
      }
    >
      <CompareView {...props} />
    </Suspense>
  );
}
