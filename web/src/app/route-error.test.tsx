import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Link, Outlet } from 'react-router';
import { renderInAppRouter } from '@/test/render';
import { inShell } from './router';
import { isChunkLoadError } from './routes/route-error';

function Broken({ error }: { error: Error }): never {
  throw error;
}

/** The app's shape (router.tsx's inShell): a shell with a link around a failing page and a fine one. */
function renderFailing(error: Error) {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const shell = (
    <>
      <Link to="/fine">Fine page</Link>
      <Outlet />
    </>
  );
  const pages = [
    { path: '/', element: <Broken error={error} /> },
    { path: '/fine', element: <h1>A fine page</h1> },
  ];
  return renderInAppRouter(inShell(shell, pages), '/').router;
}

describe('RouteErrorScreen', () => {
  it('tells a chunk that could not be downloaded from other failures', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/auth-x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/auth-x.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });

  it('shows the app’s own screen with Reload for a missing chunk', () => {
    renderFailing(new TypeError('Failed to fetch dynamically imported module: /assets/auth-x.js'));
    expect(screen.getByRole('heading', { name: 'This page could not be loaded' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('shows Something went wrong with Reload for other errors', () => {
    renderFailing(new Error('boom'));
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('keeps the shell around a failed page, and another page renders again', async () => {
    renderFailing(new Error('boom'));
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Fine page' }));
    expect(await screen.findByRole('heading', { name: 'A fine page' })).toBeTruthy();
    expect(screen.queryByTestId('app-error')).toBeNull();
  });
});
