import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import styles from './route-pages.module.css';

/**
 * Whether an error is a part of the app that could not be downloaded: a lazy chunk or its CSS
 * answering 404 (a new version was deployed while the page was open) or the network failing.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|error loading dynamically|ChunkLoadError|Failed to fetch/i.test(message);
}

/**
 * The routes' error screen, in place of React's blank page: a part of the app that failed to load
 * (usually a new version deployed while the page was open) or an unexpected error, with Reload.
 */
export function RouteErrorScreen({ error }: { error: unknown }) {
  const chunk = isChunkLoadError(error);
  return (
    <div className={styles.center} role="alert" data-testid="app-error">
      <h1>{chunk ? 'This page could not be loaded' : 'Something went wrong'}</h1>
      <p className={styles.muted}>
        {chunk
          ? 'Nearcare may have been updated since you opened it, or the connection dropped. Reload to get the latest version.'
          : 'An unexpected error stopped this page. Reload to try again.'}
      </p>
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </div>
  );
}

interface BoundaryState {
  error: unknown;
  /** The page that failed: going to another one renders the routes again. */
  failedPathname: string | null;
}

class PageErrorBoundary extends Component<{ pathname: string; children: ReactNode }, BoundaryState> {
  state: BoundaryState = { error: null, failedPathname: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('unknown error') };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error === null) return null;
    if (state.failedPathname === null) return { failedPathname: props.pathname };
    return state.failedPathname === props.pathname ? null : { error: null, failedPathname: null };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('route error', error, info.componentStack);
  }

  render() {
    return this.state.error === null ? this.props.children : <RouteErrorScreen error={this.state.error} />;
  }
}

/** Shows the error screen in place of `children` when they fail, until the user goes to another page. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <PageErrorBoundary pathname={pathname}>{children}</PageErrorBoundary>;
}
