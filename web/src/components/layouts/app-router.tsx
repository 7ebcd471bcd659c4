import { UNSAFE_createBrowserHistory, unstable_HistoryRouter as HistoryRouter, useRoutes, type RouteObject } from 'react-router';
import { RouteTableContext } from './route-meta';
import { guardHistory, GuardedHistoryContext, type GuardedHistory } from '@/lib/navigation-guard';

/**
 * The browser's history as the app navigates it. The app uses react-router's declarative router
 * (routes, links and hooks) rather than its data router: about 17 KB gzip less to download on the
 * first screen. What the data router gave is here instead: the leave guard's held navigations
 * (lib/navigation-guard.ts), the route names for the page titles (route-meta.ts) and the error
 * screen (route-error.tsx).
 */
export function createAppHistory(): GuardedHistory {
  return guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true }));
}

function AppRoutes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/** Renders `routes` at `history`'s location (the browser's, or a memory history in tests). */
export function AppRouter({ history, routes }: { history: GuardedHistory; routes: RouteObject[] }) {
  return (
    <GuardedHistoryContext value={history}>
      <RouteTableContext value={routes}>
        <HistoryRouter history={history}>
          <AppRoutes routes={routes} />
        </HistoryRouter>
      </RouteTableContext>
    </GuardedHistoryContext>
  );
}
