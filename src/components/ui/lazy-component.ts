/**
 * A component whose code loads on demand, like `React.lazy`, that can also be loaded ahead
 * (`preload`, e.g. while the user reads) and then renders at once. `React.lazy` alone suspends on
 * its first render even when its module is already in memory, and React holds a boundary's content
 * back for up to 300 ms after showing its fallback: the first reply's graph or the first Bundle tab
 * would wait for that, with nothing to do. Render it inside <Suspense> (it suspends when its code
 * is not loaded yet). An instance keeps the form it mounted with, so it never remounts.
 */
import {
  createElement,
  lazy,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';

export type LazyComponent<P> = ((props: P) => ReactNode) & {
  /** Loads the code (once); the component renders without suspending once this has settled. */
  preload: () => Promise<void>;
};

/** Any component, whatever its props (they are read from it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;

export function lazyComponent<C extends AnyComponent>(
  load: () => Promise<{ default: C }>,
): LazyComponent<ComponentProps<C>> {
  type P = ComponentProps<C>;
  let loaded: C | undefined;
  let loading: Promise<{ default: C }> | undefined;
  const loadOnce = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed load (a network error) is tried again by the next render or preload.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(loadOnce);
  function Component(props: P): ReactNode {
    const [type] = useState<ComponentType<P>>(() => (loaded ?? Lazy) as ComponentType<P>);
    return createElement(type, props);
  }
  return Object.assign(Component, { preload: () => loadOnce().then(() => undefined) });
}
