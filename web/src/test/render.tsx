import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { UNSAFE_createMemoryHistory, type Location, type RouteObject, type To } from 'react-router';
import { vi } from 'vitest';
import { AppRouter } from '@/components/layouts/app-router';
import { guardHistory } from '@/lib/navigation-guard';
import { notifySessionChanged } from '@/lib/session';

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

/** The test's view of the app router: where it is, and navigation as a link or Back would make it. */
export interface TestRouter {
  state: { readonly location: Location };
  navigate(to: To | number): Promise<void>;
  /** Unmounts the rendered routes. */
  dispose(): void;
}

type InitialEntry = string | { pathname: string; search?: string; state?: unknown };

/** Renders `routeObjects` with the app's own router over a memory history at `entry`. */
export function renderInAppRouter(routeObjects: RouteObject[], entry: InitialEntry, queryClient: QueryClient = testQueryClient()) {
  const history = guardHistory(UNSAFE_createMemoryHistory({ initialEntries: [entry], v5Compat: true }));
  const result = render(
    <QueryClientProvider client={queryClient}>
      <AppRouter history={history} routes={routeObjects} />
    </QueryClientProvider>,
  );
  const router: TestRouter = {
    state: {
      get location() {
        return history.location;
      },
    },
    async navigate(to) {
      await act(async () => (typeof to === 'number' ? history.go(to) : history.push(to)));
    },
    dispose: () => result.unmount(),
  };
  return { ...result, router, queryClient };
}

/** Renders `ui` inside a query client and a memory router at `route`. */
export function renderWithProviders(ui: ReactElement, { route = '/', path = '*' }: { route?: string; path?: string } = {}) {
  return renderInAppRouter([{ path, element: ui }, { path: '*', element: <p>elsewhere</p> }], route, testQueryClient());
}

type Handler = (url: URL, init: RequestInit | undefined) => { status?: number; body: unknown } | undefined;

/** Replaces fetch with a table of handlers; unmatched calls answer 404 like the server would. */
export function mockFetch(handler: Handler) {
  const calls: { url: URL; init: RequestInit | undefined }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push({ url, init });
    const answer = handler(url, init) ?? { status: 404, body: { message: 'Not found', code: 'not_found' } };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** Signs the test in: a token cookie, as after login. */
export function signIn(token = 'header.payload.signature') {
  document.cookie = `token=${token}; path=/`;
  notifySessionChanged();
}

/** Renders a small route table (path -> element) in a memory router starting at `route`. */
export function renderRoutes(table: Record<string, ReactElement>, route: string) {
  const routeObjects = [...Object.entries(table).map(([path, element]) => ({ path, element })), { path: '*', element: <p>elsewhere</p> }];
  return renderInAppRouter(routeObjects, route, testQueryClient());
}

/** The parsed JSON body of a recorded fetch call. */
export function bodyOf(call: { init: RequestInit | undefined }): Record<string, unknown> {
  return JSON.parse(String(call.init?.body ?? '{}')) as Record<string, unknown>;
}

/** Renders the app's route objects (the real router's table) with the app's router at `path`. */
export function renderRouteObjects(routeObjects: RouteObject[], path: string): TestRouter {
  return renderInAppRouter(routeObjects, path, testQueryClient()).router;
}
