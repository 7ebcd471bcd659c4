import { useState } from 'react';
import { RouterProvider } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

/** The router is made as the app first renders: it starts from the URL as the entry left it. */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
