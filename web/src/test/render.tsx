import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { notifySessionChanged } from '@/lib/session';

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

/** Renders `ui` inside a query client and a memory router at `route`. */
export function renderWithProviders(ui: ReactElement, { route = '/', path = '*' }: { route?: string; path?: string } = {}) {
  const queryClient = testQueryClient();
  const router = createMemoryRouter([{ path, element: ui }, { path: '*', element: <p>elsewhere</p> }], { initialEntries: [route] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
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
  const queryClient = testQueryClient();
  const router = createMemoryRouter(
    [...Object.entries(table).map(([path, element]) => ({ path, element })), { path: '*', element: <p>elsewhere</p> }],
    { initialEntries: [route] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/** The parsed JSON body of a recorded fetch call. */
export function bodyOf(call: { init: RequestInit | undefined }): Record<string, unknown> {
  return JSON.parse(String(call.init?.body ?? '{}')) as Record<string, unknown>;
}

/** Renders the app's route objects (the real router's table) in a memory router at `path`. */
export function renderRouteObjects(routeObjects: RouteObject[], path: string) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  render(
    <QueryClientProvider client={testQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
