import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { MemberMembership } from '@/lib/member';
import { membershipDate } from '@/lib/member';
import { renderWithProviders } from '@/test/render';
import { MembershipNotice } from './membership-notice';

afterEach(cleanup);

const base: MemberMembership = {
  id: 7,
  status: 'declined',
  clinic: { id: 1, providerId: 1, name: 'Front Range Direct Primary Care', locationName: 'LoDo' },
  enrolledAt: '2026-11-20T10:00:00Z',
  activeFrom: null,
  activeUntil: null,
  closedAt: '2026-11-24T09:00:00Z',
  reason: 'We cannot take new patients under 2 years old',
};

describe('what the clinic decided, on the member screens', () => {
  it('tells a declined member why and sends them to the marketplace', () => {
    renderWithProviders(<MembershipNotice membership={base} />);
    expect(screen.getByText('Front Range Direct Primary Care — LoDo could not accept your enrolment')).toBeTruthy();
    expect(screen.getByText('We cannot take new patients under 2 years old')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Choose another clinic' }).getAttribute('href')).toBe('/marketplace?selectProvider=true');
  });

  it('tells an ended member the last day; says nothing for a pending or active membership', () => {
    renderWithProviders(<MembershipNotice membership={{ ...base, status: 'ended', activeFrom: '2026-10-01', activeUntil: '2026-11-25', reason: 'Moved away' }} />);
    expect(screen.getByText('Front Range Direct Primary Care — LoDo ended your membership on Nov 25, 2026')).toBeTruthy();
    cleanup();
    for (const status of ['pending', 'active', 'moved'] as const) {
      const { container } = renderWithProviders(<MembershipNotice membership={{ ...base, status }} />);
      expect(container.querySelector('[data-testid="membership-notice"]')).toBeNull();
      cleanup();
    }
  });

  it('dates a membership by its state', () => {
    expect(membershipDate({ ...base, status: 'pending' })).toEqual({ label: 'Enrolled On', value: 'Nov 20, 2026' });
    expect(membershipDate({ ...base, status: 'active', activeFrom: '2026-11-03' })).toEqual({ label: 'Active Since', value: 'Nov 3, 2026' });
    expect(membershipDate({ ...base, status: 'ended', activeUntil: '2026-11-25' })).toEqual({ label: 'Ended On', value: 'Nov 25, 2026' });
    expect(membershipDate(base)).toBeNull();
    expect(membershipDate(null)).toBeNull();
  });
});
