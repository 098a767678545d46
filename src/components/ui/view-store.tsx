/**
 * A per-view store: ephemeral view state (which dialog is open, a draft of a form) kept by the
 * view that shows it instead of app-wide. `createViewStore` gives a provider that makes one store
 * per mounted view (zustand's `createStore`) and the hooks that read it below that provider; a
 * test renders the provider and starts from the initial state, with nothing to reset.
 */
import { createContext, useContext, useState, type ReactNode } from 'react';
import { createStore, useStore, type StateCreator, type StoreApi } from 'zustand';

export interface ViewStore<S> {
  Provider: (props: { children: ReactNode }) => ReactNode;
  /** A slice of the nearest provider's state (re-renders when the slice changes). */
  useView: <T>(selector: (s: S) => T) => T;
  /** The nearest provider's store itself, for callbacks that read or write it when they run. */
  useViewApi: () => StoreApi<S>;
}

export function createViewStore<S>(name: string, init: StateCreator<S, [], []>): ViewStore<S> {
  const Context = createContext<StoreApi<S> | null>(null);
  function Provider({ children }: { children: ReactNode }) {
    const [store] = useState(() => createStore<S>()(init));
    return <Context value={store}>{children}</Context>;
  }
  function useViewApi(): StoreApi<S> {
    const store = useContext(Context);
    if (!store) throw new Error(`${name} is read outside its view (no provider above it).`);
    return store;
  }
  function useView<T>(selector: (s: S) => T): T {
    return useStore(useViewApi(), selector);
  }
  return { Provider, useView, useViewApi };
}
