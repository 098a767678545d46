/**
 * A created agent's Publish and Activate actions load on first show (a chunk of their own, which
 * itself loads what this edit changes on demand): a thread's first load carries the editor panel,
 * not these.
 */
import { Suspense, type ComponentProps } from 'react';
import { lazyComponent } from '../../components/ui/lazy-component';

const VersionActionsView = lazyComponent(() =>
  import('./VersionActions').then((m) => ({ default: m.VersionActions })),
);

export function LazyVersionActions(props: ComponentProps<typeof VersionActionsView>) {
  return (
    <Suspense fallback={null}>
      <VersionActionsView {...props} />
    </Suspense>
  );
}
