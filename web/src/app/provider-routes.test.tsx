import { describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterLoginPath } from '@/features/auth/utils/after-login';
import { memberFixture } from '@/test/fixtures';
import { mockFetch, signIn, renderRouteObjects } from '@/test/render';
import { routes } from './router';

vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });

function providerToken(): string {
  return `header.${btoa(JSON.stringify({ sub: '90', role: 'provider', org: 3 })).replace(/=+$/, '')}.signature`;
}

const NOW = new Date().toISOString();

function renderAt(path: string) {
  const { calls } = mockFetch((url) => {
    if (url.pathname === '/dpcproviders/me') return { body: { id: 90, email: 'pat@milehigh.example', organisation: { id: 3, name: 'Mile High Health' } } };
    if (url.pathname === '/member/app/solutions') return { body: { solutions: [], favorites: [], marketplace: [] } };
    if (url.pathname === '/member/app/member/info') return { body: memberFixture() };
    if (url.pathname === '/member/app/home') return { body: { providerId: null, locationId: null, setup: 'incomplete', planID: null } };
    if (url.pathname === '/member/app/potential/employers') return { body: [] };
    if (url.pathname === '/member/app/market') return { body: { categories: [] } };
    if (url.pathname === '/member/app/sessions') {
      const session = { createdAt: NOW, lastActiveAt: NOW, expiresAt: NOW, network: '203.0.113.0/24' };
      return {
        body: {
          sessions: [
            { ...session, id: 7, current: true, device: 'Chrome on macOS' },
            { ...session, id: 8, current: false, device: 'Safari on iPhone' },
          ],
          idleLimit: '12 hours',
          absoluteLimit: '30 days',
        },
      };
    }
    return undefined;
  });
  const router = renderRouteObjects(routes, path);
  return { router, calls };
}

describe('routes by account kind', () => {
  it('sends a provider who signs in to /dpc-providers/solutions', () => {
    expect(afterLoginPath({ type: 'dpc-provider', nextStep: 'complete' })).toBe('/dpc-providers/solutions');
    expect(afterLoginPath({ type: 'dpc-provider', nextStep: 'complete' }, '/home')).toBe('/dpc-providers/solutions');
    expect(afterLoginPath({ type: 'dpc-provider', nextStep: 'complete' }, '/dpc-providers/rates')).toBe('/dpc-providers/rates');
    expect(afterLoginPath({ type: 'dpc-member', nextStep: 'complete' })).toBe('/home');
  });

  it('sends a provider away from member pages (and the clinic pages whose buttons enrol members), and never asks for the member info', async () => {
    signIn(providerToken());
    for (const path of ['/', '/home', '/account/details', '/marketplace', '/marketplace/provider/details/1?location=1']) {
      const { router, calls } = renderAt(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/dpc-providers/solutions'));
      expect(await screen.findByText('You are not paricipating in any solution!')).toBeTruthy();
      expect(calls.some((call) => call.url.pathname === '/member/app/member/info')).toBe(false);
      router.dispose();
      cleanup();
    }
  });

  it('gives a provider the organisation name, Sign Out, and a side bar with Members, Solutions, Listings, Rates and Settings', async () => {
    signIn(providerToken());
    renderAt('/dpc-providers/solutions');
    expect(await screen.findByText('Mile High Health')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Members', 'Solutions', 'Listings', 'Rates', 'Settings']);
    expect(document.title).toBe('Member - Solutions');
  });

  it("shows a provider where their account is signed in, on the member Settings' card", async () => {
    signIn(providerToken());
    const { calls } = renderAt('/dpc-providers/settings');
    expect(await screen.findByRole('heading', { name: "Where you're signed in" })).toBeTruthy();
    const rows = await screen.findAllByTestId('session-row');
    expect(rows.map((row) => row.dataset.current === 'true')).toEqual([true, false]);
    expect(within(rows[1]!).getByText('Safari on iPhone')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign out of all other devices' })).toBeTruthy();
    expect(document.title).toBe('Member - Settings');
    expect(calls.some((call) => call.url.pathname === '/member/app/member/info')).toBe(false);
  });

  it('sends a member away from provider pages, and a visitor to login', async () => {
    signIn('header.payload.signature');
    const member = renderAt('/dpc-providers/solutions');
    await waitFor(() => expect(member.router.state.location.pathname).toBe('/home'));
    member.router.dispose();
    document.cookie = 'token=; Max-Age=0; path=/';
    const visitor = renderAt('/dpc-providers/rates');
    await waitFor(() => expect(visitor.router.state.location.pathname).toBe('/login'));
  });

  it('opens the facilitator\'s review link without a login', async () => {
    const { router } = renderAt('/dpc-providers/participations/review?token=abc');
    expect(await screen.findByRole('heading', { name: 'Participation request' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dpc-providers/participations/review');
  });
});
