import { RouterProvider } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

const router = createAppRouter();

/** The app; `queryClient` is the entry's cache, which the first screen's calls may already fill. */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
