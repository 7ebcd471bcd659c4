import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { Member } from '@/lib/member';
import { memberFixture } from '@/test/fixtures';
import { mockFetch, renderRoutes, signIn } from '@/test/render';
import { homeActions } from '../utils/home-actions';
import { HomePage } from './home-page';

function renderHome(member: Member | { status: number; body: unknown }) {
  signIn();
  mockFetch((url) => {
    if (url.pathname !== '/member/app/member/info') return undefined;
    return 'status' in member && typeof member.status === 'number' && 'body' in member ? member : { body: member };
  });
  return renderRoutes({ '/home': <HomePage />, '/login': <p>login page</p> }, '/home');
}

describe('home', () => {
  afterEach(() => vi.useRealTimers());

  it('picks the buttons by nextStep', () => {
    expect(homeActions({ nextStep: 'selectDPC', providerId: null, locationId: null, providerPortal: null })).toEqual(['select-provider']);
    expect(homeActions({ nextStep: 'confirmPlan', providerId: 1, locationId: 1, providerPortal: 'https://portal' })).toEqual(['update-provider', 'confirm-eligibility']);
    expect(homeActions({ nextStep: 'complete', providerId: 1, locationId: 1, providerPortal: 'https://portal' })).toEqual(['update-provider', 'provider-portal']);
    expect(homeActions({ nextStep: 'complete', providerId: 1, locationId: 1, providerPortal: null })).toEqual(['update-provider']);
  });

  it('welcomes the member by name with the three cards and stores /home as the redirect', async () => {
    renderHome(memberFixture({ providerPortal: 'https://portal.example/jane' }));
    expect(await screen.findByRole('heading', { name: 'Jane Doe' })).toBeTruthy();
    expect(screen.getByText('Welcome')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'My Advanced Primary Care' })).toBeTruthy();
    expect(screen.getByText('Membership Valid Until')).toBeTruthy();
    expect(screen.getByText('11/21/2027')).toBeTruthy();
    expect(screen.getByText('Pending first visit')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Insurance Information' })).toBeTruthy();
    expect(screen.getByText('Relationship to Subscriber')).toBeTruthy();
    const portal = screen.getByRole('link', { name: 'Access my provider member portal' });
    expect(portal.getAttribute('target')).toBe('_blank');
    expect(screen.queryByRole('link', { name: 'Confirm Eligibility' })).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('redirect')!)).toBe('/home');
  });

  it('offers Confirm Eligibility and Select Provider by next step', async () => {
    renderHome(memberFixture({ nextStep: 'confirmPlan' }));
    expect(await screen.findByRole('link', { name: 'Confirm Eligibility' })).toBeTruthy();
  });

  it('gives up after 3 seconds without the member and goes to /login with the message', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = renderHome({ status: 500, body: { message: 'boom', code: 'internal' } });
    expect(screen.getByRole('status')).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3100);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect((router.state.location.state as { message: string }).message).toBe('Sorry, something went wrong while fetching your information.');
  });
});
