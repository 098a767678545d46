import { lazy, Suspense } from 'react';
import { Spinner } from '../ui/Spinner';
import type { MonacoBundleDiffProps } from './MonacoBundleDiff';
import { useDarkClass as useDarkMode } from '../ui/use-dark';

const MonacoBundleDiff = lazy(() => import('./MonacoBundleDiff'));

/** Two bundles side by side in Monaco's diff editor; Monaco loads on first use. */
export function LazyBundleDiff(props: Omit<MonacoBundleDiffProps, 'dark'>) {
  const dark = useDarkMode();
  return (
    <Suspense
      fallback={
        <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
          <Spinner label="Loading the diff" /> Loading the diff…
        </div>
      }
    >
      <MonacoBundleDiff {...props} dark={dark} />
    </Suspense>
  );
}
