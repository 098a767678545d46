/**
 * What this edit changes and a lint finding's witness load on first show (their own chunk, with the
 * diff worker's client): a thread's first load carries the editor panel, not these.
 */
import { Suspense, type ComponentProps } from 'react';
import { lazyComponent } from '../../components/ui/lazy-component';

const EditChangesView = lazyComponent(() =>
  import('./EditChanges').then((m) => ({ default: m.EditChanges })),
);
const FindingWitnessView = lazyComponent(() =>
  import('./WitnessActions').then((m) => ({ default: m.FindingWitness })),
);

export function LazyEditChanges(props: ComponentProps<typeof EditChangesView>) {
  return (
    <Suspense fallback={<p className="text-xs text-zinc-500">Loading what this edit changes…</p>}>
      <EditChangesView {...props} />
    </Suspense>
  );
}

export function LazyFindingWitness(props: ComponentProps<typeof FindingWitnessView>) {
  return (
    <Suspense fallback={null}>
      <FindingWitnessView {...props} />
    </Suspense>
  );
}
