/**
 * Providers and start-up wiring: the query client, the router, and the API client's connection
 * source (the connection store). When the server or the identity changes, cached server data is
 * dropped, so nothing from one server shows up while talking to another.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { FeatureSlots } from './feature-slots';
import { whatIfActions } from './what-if-actions';
import { RouterProvider } from '@tanstack/react-router';
import { setApiConfigSource } from '../api/client';
import { isApiError } from '../api/errors';
import { apiKeys } from '../api/keys';
import { connectionIdentity, toApiConfig, useConnectionStore } from '../domain/connection/connection-store';
import { createAppRouter } from './router';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => count < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

setApiConfigSource(() => toApiConfig(useConnectionStore.getState()));

let identity = connectionIdentity(useConnectionStore.getState());
useConnectionStore.subscribe((s) => {
  const next = connectionIdentity(s);
  if (next === identity) return;
  identity = next;
  void queryClient.resetQueries({ queryKey: apiKeys.all });
});

const router = createAppRouter();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <FeatureSlots whatIfActions={whatIfActions}>
        <RouterProvider router={router} />
      </FeatureSlots>
    </QueryClientProvider>
  );
}
