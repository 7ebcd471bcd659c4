import type { QueryClient } from '@tanstack/react-query';
import { AppProvider } from './provider';
import { AppRouter, createAppHistory } from '@/components/layouts/app-router';
import { routes } from './router';

const history = createAppHistory();

/** The app; `queryClient` is the entry's cache, which the first screen's calls may already fill. */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <AppProvider queryClient={queryClient}>
      <AppRouter history={history} routes={routes} />
    </AppProvider>
  );
}
