import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { isChunkLoadError, RouteErrorScreen } from './routes/route-error';

function Broken({ error }: { error: Error }): never {
  throw error;
}

function renderFailing(error: Error) {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const router = createMemoryRouter([{ path: '/', element: <Broken error={error} />, errorElement: <RouteErrorScreen /> }]);
  render(<RouterProvider router={router} />);
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
});
