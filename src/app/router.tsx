/** Code-based routes. One route today: the workspace, whose state lives in validated search params. */
import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { Root } from './Root';
import { parseWorkspaceSearch } from './search';
import { Workspace } from './Workspace';

const rootRoute = createRootRoute({ component: Root });

const workspaceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  validateSearch: (raw: Record<string, unknown>) => parseWorkspaceSearch(raw),
  component: Workspace,
});

const routeTree = rootRoute.addChildren([workspaceRoute]);

export function createAppRouter() {
  return createRouter({ routeTree, defaultPreload: false, scrollRestoration: false });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
