import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderRouteObjects } from '@/test/render';
import { notifySessionChanged } from '@/lib/session';
import { selectedDependent } from '@/lib/storage';
import { routes } from './router';

function renderAt(path: string) {
  mockFetch((url) => {
    if (url.pathname === '/member/app/potential/employers') return { body: [] };
    if (url.pathname === '/member/app/market') return { body: { categories: [] } };
    return undefined;
  });
  const router = renderRouteObjects(routes, path);
  return router;
}

// The marketplace map (lazy, so loaded by whichever test renders it first) measures itself; jsdom has no ResizeObserver.
vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });

// Loaded before the tests, so no test leaves the map's import (Leaflet's modules) in flight when
// the file ends: on a busy machine it was still loading at the environment's teardown, and
// vitest failed the run with five "Cannot load ... after the environment was torn down" errors.
beforeAll(async () => {
  await import('@/features/marketplace/components/market-map');
});

describe('routes and shell', () => {
  it('redirects / to /marketplace and titles the page', async () => {
    const router = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/marketplace'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Advanced Primary Care powered by the provider' })).toBeTruthy();
    expect(document.title).toBe('Member - Marketplace');
    expect(screen.getByText('Choose from 1200+ clinics and 1000+ providers nationwide')).toBeTruthy();
  });

  it('shows Get Started and Login when signed out, without the side bar', async () => {
    renderAt('/marketplace');
    expect((await screen.findByRole('link', { name: 'Get Started' })).getAttribute('href')).toBe('/register');
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('hides the public header on authentication routes', async () => {
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Get Started' })).toBeNull();
    expect(document.title).toBe('Member - MemberLogin');
  });

  it('sends unknown paths to /404', async () => {
    const router = renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy();
  });

  it('sends signed-out visitors of protected routes to /login', async () => {
    const router = renderAt('/home');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('shows the 225 px side bar to signed-in members on wide screens, not on /membership', async () => {
    document.cookie = 'token=abc; path=/';
    notifySessionChanged();
    const router = renderAt('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Home', 'Marketplace', 'Account']);
    await router.navigate('/membership');
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull());
  });

  it('acts on the signed-in member again after a side bar navigation', async () => {
    document.cookie = 'token=abc; path=/';
    notifySessionChanged();
    selectedDependent.set(22);
    const router = renderAt('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    fireEvent.click(within(nav).getByRole('link', { name: 'Marketplace' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/marketplace'));
    expect(selectedDependent.get()).toBeNull();
  });

  it('sends signed-out visitors of every protected group to /login, remembering where they were going', async () => {
    for (const path of ['/account/details', '/account/family-members/menu', '/auth/personal-info', '/find-care', '/membership']) {
      const router = renderAt(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      expect((router.state.location.state as { from: string }).from).toBe(path);
    }
  });

  it('has no /signup route: it is an unknown path like any other', async () => {
    const router = renderAt('/signup');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
  });

  it('opens /account as /account/details and titles the page', async () => {
    document.cookie = 'token=abc; path=/';
    notifySessionChanged();
    const router = renderAt('/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
    await waitFor(() => expect(document.title).toBe('Member - Account Details'));
  });

  it('sends a signed-in visitor of the welcome page to /marketplace', async () => {
    document.cookie = 'token=abc; path=/';
    notifySessionChanged();
    const router = renderAt('/welcome');
    await waitFor(() => expect(router.state.location.pathname).toBe('/marketplace'));
  });

  it('shows the welcome page to visitors', async () => {
    const router = renderAt('/welcome');
    expect(await screen.findByText('Choose from 1200+ clinics and 1000+ providers nationwide')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/welcome');
    expect(document.title).toBe('Member - WelcomePage');
  });
});
