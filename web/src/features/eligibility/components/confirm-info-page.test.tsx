import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { clearAccessToken } from '@/lib/session';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderRoutes, signIn } from '@/test/render';
import { CONTACT_PROMISE, ConfirmInfoPage } from './confirm-info-page';

/** A member who has just signed up: an email and an employer, no gender or insurance details. */
const newMember = memberFixture({ firstName: '', lastName: '', dob: null, gender: null, phone: null, memberId: null, planId: null, payerId: null, nextStep: 'selectDPC', setup: 'incomplete', eligibility: { status: null }, subscription: null, location: null, providerId: null, locationId: null });

describe('/confirm-info', () => {
  it('sends only the name and the phone it asks, to the call that records the request', async () => {
    signIn();
    const { calls } = mockFetch((url, init) => {
      if (url.pathname === '/member/app/member/info') return { body: newMember };
      if (init?.method === 'POST' && url.pathname === '/member/app/contact/request') return { status: 201, body: { id: 3, message: 'A representative will contact you shortly.', eligibilityCheck: null } };
      return undefined;
    });
    renderRoutes({ '/confirm-info': <ConfirmInfoPage />, '/marketplace': <p>marketplace page</p> }, '/confirm-info');
    fireEvent.change(await screen.findByLabelText('First name'), { target: { value: 'Maria' } });
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Lopez' } });
    const phone = screen.getByLabelText('Mobile phone') as HTMLInputElement;
    fireEvent.change(phone, { target: { value: '+1 303 555 0123' } });
    expect(phone.value).toBe('+1 303 555 0123');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Information' }));
    const dialog = await screen.findByRole('dialog', { name: "Great! You're all set." });
    expect(within(dialog).getByText(CONTACT_PROMISE)).toBeTruthy();
    const sent = calls.filter((call) => call.init?.method === 'POST' || call.init?.method === 'PUT');
    expect(sent.map((call) => call.url.pathname)).toEqual(['/member/app/contact/request']);
    expect(bodyOf(sent[0]!)).toEqual({ firstName: 'Maria', lastName: 'Lopez', phone: '+1 303 555 0123' });
  });

  it('asks a visitor without an account to log in first', async () => {
    clearAccessToken();
    mockFetch(() => undefined);
    renderRoutes({ '/confirm-info': <ConfirmInfoPage /> }, '/confirm-info');
    expect(await screen.findByText('Please log in to continue')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login'));
    expect(screen.queryByRole('button', { name: 'Confirm Information' })).toBeNull();
  });
});
