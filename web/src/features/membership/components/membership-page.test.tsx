import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { FamilyMember } from '@/lib/member';
import { memberFixture } from '@/test/fixtures';
import { mockFetch, renderRoutes, signIn } from '@/test/render';
import { backTarget, membershipAction, membershipProgress, membershipSteps, swiperLayout } from '../utils/membership-rules';
import { MembershipPage } from './membership-page';

function familyOf(count: number): FamilyMember[] {
  return Array.from({ length: count }, (_, index) => ({ id: 100 + index, firstName: `Kid${index}`, lastName: 'Doe', subscription: { status: 'pending' } }));
}

describe('membership rules', () => {
  it('uses a swiper only above 3 cards and starts on the second card from 1020 px', () => {
    expect(swiperLayout(3, 1400)).toEqual({ swiper: false, initialIndex: 0 });
    expect(swiperLayout(4, 1019)).toEqual({ swiper: true, initialIndex: 0 });
    expect(swiperLayout(4, 1020)).toEqual({ swiper: true, initialIndex: 1 });
    expect(swiperLayout(1, 1600)).toEqual({ swiper: false, initialIndex: 0 });
  });

  it('activates through the portal, else calls the clinic, else waits for the clinic', () => {
    expect(membershipAction({ providerPortal: 'https://portal', location: null })).toEqual({ kind: 'activate', link: 'https://portal' });
    expect(membershipAction({ providerPortal: null, location: { id: 1, name: 'X', phone: '303 555 0199' } })).toEqual({ kind: 'call', phone: '303 555 0199' });
    expect(membershipAction({ providerPortal: null, location: { id: 1, name: 'X', phone: '' } })).toEqual({ kind: 'wait' });
  });

  it('orders the steps by when the provider was chosen and adds the family step', () => {
    expect(membershipSteps(true, null, 1)).toEqual(['Select Provider', 'Create account', 'Verify your eligibility', 'Schedule your first visit']);
    expect(membershipSteps(false, null, 1)).toEqual(['Create account', 'Select Provider', 'Verify your eligibility', 'Activate membership']);
    expect(membershipSteps(false, 'yes', 1)).toContain('Add Family Member');
    expect(membershipSteps(false, 'no', 2)).toContain('Add Family Member');
  });

  it('ticks only the steps that are true: no provider or eligibility yet means only the account', () => {
    const steps = membershipSteps(false, null, 1);
    const none = { emailVerified: true, locationId: null, location: null, eligibility: null, subscription: null };
    expect(membershipProgress(steps, none, 1)).toEqual({ done: [true, false, false, false], current: 1 });
    const eligibleOnly = { ...none, eligibility: { status: 'active' as const } };
    expect(membershipProgress(steps, eligibleOnly, 1)).toEqual({ done: [true, false, true, false], current: 1 });
    const active = { ...eligibleOnly, locationId: 3, subscription: { status: 'active' as const, expire: null } };
    expect(membershipProgress(steps, active, 1)).toEqual({ done: [true, true, true, true], current: 4 });
  });

  it('goes back to /home or /account/details when stored, else the marketplace', () => {
    expect(backTarget('/home')).toBe('/home');
    expect(backTarget('/account/details')).toBe('/account/details');
    expect(backTarget('/elsewhere')).toBe('/marketplace');
    expect(backTarget(null)).toBe('/marketplace');
  });
});

describe('membership page', () => {
  function renderWith(member = memberFixture()) {
    signIn();
    mockFetch((url) => (url.pathname === '/member/app/member/info' ? { body: member } : undefined));
    return renderRoutes({ '/membership': <MembershipPage /> }, '/membership');
  }

  it('shows the pending header, the selected provider, the card and the call button', async () => {
    renderWith();
    expect(await screen.findByRole('heading', { name: 'YOUR MEMBERSHIP IS STILL PENDING' })).toBeTruthy();
    expect(screen.getByText("You've selected:")).toBeTruthy();
    const cards = screen.getAllByTestId('membership-card');
    expect(cards).toHaveLength(1);
    expect(cards[0]!.textContent).toContain('Jane Doe');
    expect(cards[0]!.textContent).toContain('Acme Corporation');
    expect(cards[0]!.textContent).toContain('Pending');
    expect(screen.getByRole('link', { name: 'Call clinic' }).getAttribute('href')).toBe('tel:3035550199');
    expect(screen.getByText('or dial 303 555 0199')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View my account' })).toBeTruthy();
    expect(screen.queryByTestId('membership-swiper')).toBeNull();
  });

  it('shows Activate membership with a portal and a swiper for the family of five', async () => {
    renderWith(memberFixture({ providerPortal: 'https://portal.example', family: familyOf(4) }));
    expect(await screen.findByRole('button', { name: 'Activate membership' })).toBeTruthy();
    expect(screen.getByTestId('membership-swiper')).toBeTruthy();
    expect(screen.getAllByTestId('membership-card')).toHaveLength(5);
    expect(screen.getByText('Add Family Member')).toBeTruthy();
  });

  it('says the clinic will reach out when there is neither a portal nor a phone', async () => {
    renderWith(memberFixture({ location: { id: 1, name: 'Front Range', phone: null } }));
    expect(await screen.findByText('The clinic will reach out to schedule your first appointment')).toBeTruthy();
  });
});
