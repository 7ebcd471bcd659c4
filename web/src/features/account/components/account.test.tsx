import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Member } from '@/lib/member';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderRoutes, signIn } from '@/test/render';
import { AccountDetailsPage } from './account-details-page';
import { FamilyMembersMenuPage } from './account-pages';
import { hardNavigation } from '@/lib/hard-navigation';
import { getAccessToken } from '@/lib/session';
import { selectedDependent } from '@/lib/storage';
import { familyUpdateBody } from '../utils/member-form-values';
import { EditContactPage } from './edit-contact-page';
import { EditDependentPage } from './edit-dependent-page';
import { RECHECK_TEXTS } from './edit-page-parts';
import { EditSubscriberPage } from './edit-subscriber-page';
import { MemberMenu } from './member-menu';
import { passwordFormErrors } from './settings-panel';

type Answer = { status?: number; body: unknown };

function renderAccount(member: Member, route = '/account/details', extra: Record<string, Answer> = {}) {
  signIn();
  const fetched = mockFetch((url, init) => {
    if (url.pathname === '/member/app/member/info') return { body: member };
    return extra[`${init?.method ?? 'GET'} ${url.pathname}`];
  });
  const rendered = renderRoutes(
    {
      '/account/details': <AccountDetailsPage />,
      '/account/edit-contact': <EditContactPage />,
      '/account/edit-dependent/:id': <EditDependentPage />,
      '/account/edit-subscriber': <EditSubscriberPage />,
      '/home': <p>home page</p>,
      '/marketplace': <p>marketplace page</p>,
    },
    route,
  );
  return { ...fetched, ...rendered };
}

describe('account details', () => {
  it('shows the red pending note when eligibility is still to be confirmed', async () => {
    renderAccount(memberFixture({ nextStep: 'confirmPlan', eligibility: { status: null } }));
    expect(await screen.findByText('*pending eligibility confirmation')).toBeTruthy();
    expect(screen.getByText('Eligibility, not confirmed')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Confirm Eligibility' }).getAttribute('href')).toBe('/confirm-plan-information');
    expect(screen.queryByRole('link', { name: 'Go to provider member portal' })).toBeNull();
  });

  it('shows the portal link only when complete with a portal, and the status labels', async () => {
    renderAccount(memberFixture({ providerPortal: 'https://portal.example', subscription: { status: 'active', expire: '2027-11-21' } }));
    expect(await screen.findByRole('link', { name: 'Go to provider member portal' })).toBeTruthy();
    expect(screen.queryByText('*pending eligibility confirmation')).toBeNull();
    expect(screen.getAllByText('Active').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Update My Provider' }));
    expect(await screen.findByRole('dialog', { name: 'You have an active membership with Front Range Direct Primary Care' })).toBeTruthy();
  });

  it("shows the server's message when the family calls are not there yet", async () => {
    renderAccount(memberFixture(), '/account/details?panel=family', {
      'GET /member/app/family/members': { status: 404, body: { message: 'No route for /member/app/family/members', code: 'not_found' } },
    });
    expect(await screen.findByText('No route for /member/app/family/members')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add a family member' })).toBeTruthy();
  });

  it('removes a family member after the exact confirmation', async () => {
    const { calls } = renderAccount(memberFixture(), '/account/details?panel=family', {
      'GET /member/app/family/members': { body: [{ id: 21, firstName: 'John', lastName: 'Doe', subscriberRelation: 'Spouse', subscription: { status: 'pending' } }] },
      'DELETE /member/app/family/member/21': { body: { message: 'John Doe was removed from your account.' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete John Doe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure you want to remove this family member from your account?' });
    expect(within(dialog).getByText('This action cannot be undone.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'No, go back' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('John Doe was removed from your account.')).toBeTruthy();
    expect(calls.some((call) => call.init?.method === 'DELETE' && call.url.pathname === '/member/app/family/member/21')).toBe(true);
  });

  it('hides Delete from a member who is not the subscriber', async () => {
    renderAccount(memberFixture({ subscriberRelation: 'Spouse' }), '/account/details?panel=family', {
      'GET /member/app/family/members': { body: [{ id: 21, firstName: 'Emma', lastName: 'Doe', subscriberRelation: 'Dependent' }] },
    });
    expect(await screen.findByText('Emma Doe')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Emma Doe' })).toBeNull();
  });

  it('changes the email: a registered address gets the Try another email dialog', async () => {
    renderAccount(memberFixture(), '/account/details?panel=settings', {
      'POST /member/app/validate/email': { body: { valid: false, message: 'This e-mail is already registered.' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Change email' }));
    fireEvent.change(screen.getByLabelText('New email'), { target: { value: 'john@acme.example' } });
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old-pass-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send verification link' }));
    const dialog = await screen.findByRole('dialog', { name: 'This e-mail is already registered.' });
    expect(within(dialog).getByRole('button', { name: 'Try another email' })).toBeTruthy();
  });

  it('sends the verification link for a free address', async () => {
    const { calls } = renderAccount(memberFixture(), '/account/details?panel=settings', {
      'POST /member/app/validate/email': { body: { valid: true } },
      'POST /member/app/change/email': { body: { message: 'sent' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Change email' }));
    fireEvent.change(screen.getByLabelText('New email'), { target: { value: 'Jane.New@Acme.example' } });
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old-pass-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send verification link' }));
    expect(await screen.findByRole('dialog', { name: 'Check your E-mail' })).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/validate/email')!)).toEqual({ email: 'jane.new@acme.example', status: 'all' });
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/change/email')!)).toEqual({ email: 'jane.new@acme.example', currentPassword: 'Old-pass-123' });
  });

  it('asks for the current password before changing the email, and says when it is wrong', async () => {
    const { calls } = renderAccount(memberFixture(), '/account/details?panel=settings', {
      'POST /member/app/validate/email': { body: { valid: true } },
      'POST /member/app/change/email': { status: 400, body: { message: 'Invalid password', code: 'invalid_password', field: 'currentPassword' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Change email' }));
    fireEvent.change(screen.getByLabelText('New email'), { target: { value: 'jane.new@acme.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send verification link' }));
    expect(await screen.findByText('Password is required')).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/member/app/change/email')).toBe(false);
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Wrong-pass-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send verification link' }));
    expect(await screen.findByText('Invalid password')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Check your E-mail' })).toBeNull();
  });

  it('offers Set password without one and Change password with one', async () => {
    renderAccount(memberFixture({ password: null, hasPassword: false }), '/account/details?panel=settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Set password' }));
    expect(screen.getByRole('heading', { name: 'Set Password' })).toBeTruthy();
    expect(screen.queryByLabelText('Current password')).toBeNull();
  });

  it('says Invalid password for a wrong current password', async () => {
    renderAccount(memberFixture(), '/account/details?panel=settings', {
      'POST /member/app/password/change': { status: 400, body: { message: 'Invalid password', code: 'invalid_password' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Change password' }));
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old-pass-123' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New-pass-123' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'New-pass-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Invalid password')).toBeTruthy();
  });

  it('refuses a new password equal to the current one', () => {
    expect(passwordFormErrors({ current: 'Same-pass-123', password: 'Same-pass-123', confirmation: 'Same-pass-123' }, true).password).toBe(
      'For security reasons, your new password cannot be the same as your old one.',
    );
    expect(passwordFormErrors({ current: '', password: 'x', confirmation: 'y' }, true)).toEqual({
      current: 'Password is required',
      password: 'Password does not meet the security requirements',
      confirmation: 'Password must match',
    });
  });
});

describe('edit contact', () => {
  it('saves the phone alone through PUT /member/app/personal/contact and confirms', async () => {
    // A member who just signed up has no gender: the old whole-member save was refused for it.
    const { calls, router } = renderAccount(memberFixture({ gender: null, dob: null }), '/account/edit-contact', {
      'PUT /member/app/personal/contact': { body: memberFixture({ phone: '+17205550101' }) },
    });
    const field = await screen.findByLabelText('Mobile phone');
    fireEvent.change(field, { target: { value: '7205550101' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: "Great! You're all set." });
    expect(within(dialog).getByText('Contact Information confirmed')).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.init?.method === 'PUT')!)).toEqual({ phone: '720 555 0101' });
    expect(calls.some((call) => call.url.pathname === '/member/app/personal/info')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
  });

  it('keeps a +1 number as typed: the mask never drops or moves a digit', async () => {
    const { calls } = renderAccount(memberFixture({ phone: '+13035550100' }), '/account/edit-contact', {
      'PUT /member/app/personal/contact': { body: memberFixture({ phone: '+13035550123' }) },
    });
    const field = (await screen.findByLabelText('Mobile phone')) as HTMLInputElement;
    expect(field.value).toBe('303 555 0100');
    expect(field.maxLength).toBe(-1);
    fireEvent.change(field, { target: { value: '+1 303 555 0123' } });
    expect(field.value).toBe('+1 303 555 0123');
    fireEvent.change(field, { target: { value: '+1 (303) 555-0123' } });
    expect(field.value).toBe('+1 303 555 0123');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: "Great! You're all set." });
    expect(bodyOf(calls.find((call) => call.init?.method === 'PUT')!)).toEqual({ phone: '+1 303 555 0123' });
  });

  it('shows the message for a number with a digit too many, rather than cutting it', async () => {
    const { calls } = renderAccount(memberFixture(), '/account/edit-contact');
    const field = (await screen.findByLabelText('Mobile phone')) as HTMLInputElement;
    fireEvent.change(field, { target: { value: '303555012345' } });
    expect(field.value).toBe('303 555 012345');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Phone number must be in a valid format (XXX XXX XXXX)')).toBeTruthy();
    expect(calls.some((call) => call.init?.method === 'PUT')).toBe(false);
  });

  it("shows the server's message when the save is refused", async () => {
    renderAccount(memberFixture(), '/account/edit-contact', { 'PUT /member/app/personal/contact': { status: 404, body: { message: 'No route for /member/app/personal/contact', code: 'not_found' } } });
    fireEvent.change(await screen.findByLabelText('Mobile phone'), { target: { value: '7205550101' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('No route for /member/app/personal/contact')).toBeTruthy();
  });
});

describe('edit subscriber (Account, Personal information)', () => {
  const refusal = { eligible: false, code: 'eligibility_not_verified', message: 'We were unable to verify eligibility. Please enter subscriber information and resubmit.', eligibility: { code: 400, status: null, err: { chcDown: false } } };

  it("a new name the health plan does not recognise: saved, says so instead of You're all set, and leads back to the form", async () => {
    const { calls, router } = renderAccount(memberFixture({ firstName: 'Maria' }), '/account/edit-subscriber', {
      'PUT /member/app/personal/info': { body: { ...memberFixture({ firstName: 'Mariah', nextStep: 'confirmPlan', eligibility: { status: null } }), eligibilityCheck: refusal } },
    });
    fireEvent.change(await screen.findByLabelText('First name'), { target: { value: 'Mariah' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Information' }));
    const dialog = await screen.findByRole('dialog', { name: 'Oops! We could not confirm eligibility.' });
    expect(within(dialog).getByText(RECHECK_TEXTS.refused)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: "Great! You're all set." })).toBeNull();
    expect(bodyOf(calls.find((call) => call.init?.method === 'PUT')!)).toMatchObject({ firstName: 'Mariah' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review information' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm-plan-information'));
  });

  it('another plan, or a health plan out of reach, each say what happens next', async () => {
    renderAccount(memberFixture(), '/account/edit-subscriber', {
      'PUT /member/app/personal/info': { body: { ...memberFixture(), eligibilityCheck: { ...refusal, code: 'eligibility_unavailable', eligibility: { code: 500, status: 'pending', err: { chcDown: true } } } } },
    });
    fireEvent.change(await screen.findByLabelText('Last name'), { target: { value: 'Doe-Smith' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Information' }));
    const dialog = await screen.findByRole('dialog', { name: RECHECK_TEXTS.unavailableTitle });
    expect(within(dialog).getByText(RECHECK_TEXTS.unavailable)).toBeTruthy();
  });

  it("the same insured person: You're all set, and the clinic's call promised only for a membership pending its first visit", async () => {
    renderAccount(memberFixture({ subscription: { status: 'active', expire: '2027-11-21' } }), '/account/edit-subscriber', {
      'PUT /member/app/personal/info': { body: { ...memberFixture({ subscription: { status: 'active', expire: '2027-11-21' } }), eligibilityCheck: null } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Save Information' }));
    const dialog = await screen.findByRole('dialog', { name: "Great! You're all set." });
    expect(within(dialog).getByText('Your information is saved.')).toBeTruthy();
    expect(within(dialog).queryByText(/will reach out to schedule your first appointment/)).toBeNull();
  });
});

describe('avatar menu', () => {
  it('lists the family with their providers or a red Select Provider, and Sign Out', async () => {
    signIn();
    mockFetch((url) =>
      url.pathname === '/member/app/member/info' ? { body: memberFixture({ family: [{ id: 21, firstName: 'Emma', lastName: 'Doe', location: null }] }) } : undefined,
    );
    renderRoutes({ '/': <MemberMenu /> }, '/');
    await waitFor(() => expect(screen.getByRole('button', { name: 'JD, account menu' }).getAttribute('aria-expanded')).toBe('false'));
    fireEvent.click(screen.getByRole('button', { name: 'JD, account menu' }));
    const menu = screen.getByRole('group', { name: 'Account' });
    expect(within(menu).getByText('Front Range Direct Primary Care')).toBeTruthy();
    expect(within(menu).getByText('Emma Doe')).toBeTruthy();
    expect(within(menu).getByRole('link', { name: 'Select Provider for Emma Doe' }).textContent).toBe('Select Provider');
    expect(within(menu).getByRole('link', { name: 'Add a family member' })).toBeTruthy();
    expect(within(menu).getByRole('button', { name: 'Sign Out' })).toBeTruthy();
  });
});

/** A token as the server issues it, with an optional `act` claim. */
function token(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

describe('family', () => {
  const john = { id: 21, firstName: 'John', lastName: 'Doe', subscriberRelation: 'Spouse' as const, dob: '1984-09-30', gender: 'm', email: 'john@acme.example', phone: '303 555 0101', zipCode: null, memberId: '123-456790', location: null, subscription: { status: null } };

  it('switches to a family member from the avatar menu: the token cookie, then /home loaded afresh', async () => {
    const assign = vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    const dependentToken = token({ sub: '21', act: { sub: '7' } });
    signIn(token({ sub: '7' }));
    const { calls } = mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture({ family: [john] }) };
      if (url.pathname === '/member/app/token/dependent/21') return { body: { accessToken: dependentToken, type: 'dpc-member', id: 21 } };
      return undefined;
    });
    renderRoutes({ '/': <MemberMenu />, '/home': <p>home page</p> }, '/');
    await waitFor(() => expect(screen.getByRole('button', { name: 'JD, account menu' }).getAttribute('aria-expanded')).toBe('false'));
    fireEvent.click(screen.getByRole('button', { name: 'JD, account menu' }));
    fireEvent.click(within(screen.getByRole('group', { name: 'Account' })).getByRole('button', { name: 'Switch to John Doe' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/home'));
    expect(getAccessToken()).toBe(dependentToken);
    expect(calls.some((call) => call.url.pathname === '/member/app/token/dependent/21')).toBe(true);
    // Nothing is asked again under the family member's token before the new page loads.
    expect(calls.filter((call) => call.url.pathname === '/member/app/member/info')).toHaveLength(1);
    assign.mockRestore();
  });

  it('switches back to the subscriber from a family member session', async () => {
    const assign = vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    const ownToken = token({ sub: '7' });
    signIn(token({ sub: '21', act: { sub: '7' } }));
    mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture({ id: 21, firstName: 'John', subscriberRelation: 'Spouse', subscriberId: 7, family: [] }) };
      if (url.pathname === '/member/app/token/dependent/7') return { body: { accessToken: ownToken, type: 'dpc-member', id: 7 } };
      return undefined;
    });
    renderRoutes({ '/': <MemberMenu />, '/home': <p>home page</p> }, '/');
    await waitFor(() => expect(screen.getByRole('button', { name: 'JD, account menu' }).getAttribute('aria-expanded')).toBe('false'));
    fireEvent.click(screen.getByRole('button', { name: 'JD, account menu' }));
    const menu = screen.getByRole('group', { name: 'Account' });
    expect(within(menu).getByText('Acting as')).toBeTruthy();
    expect(within(menu).queryByRole('link', { name: 'Add a family member' })).toBeNull();
    fireEvent.click(within(menu).getByRole('button', { name: 'Switch back to my account' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/home'));
    expect(getAccessToken()).toBe(ownToken);
    assign.mockRestore();
  });

  it('opens the family-members menu from the Self row: a disclosure with the holder\'s summary and a link to the personal details', async () => {
    signIn();
    mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture() };
      if (url.pathname === '/member/app/family/members') return { body: [john] };
      return undefined;
    });
    const { router } = renderRoutes({ '/account/family-members/menu': <FamilyMembersMenuPage />, '/account/personal': <p>personal page</p> }, '/account/family-members/menu');
    const self = await screen.findByRole('link', { name: /^Jane Doe\s*Primary Account Holder$/ });
    expect(self.getAttribute('href')).toBe('/account/family-members/menu?holder=open');
    expect(self.getAttribute('aria-expanded')).toBe('false');
    const summary = document.getElementById(self.getAttribute('aria-controls')!)!;
    expect(summary.hidden).toBe(true);
    self.focus();
    fireEvent.click(self);
    await waitFor(() => expect(self.getAttribute('aria-expanded')).toBe('true'));
    expect(router.state.location.pathname).toBe('/account/family-members/menu');
    expect(summary.hidden).toBe(false);
    expect(document.activeElement).toBe(self);
    const facts = within(summary);
    expect(facts.getByText('Relationship').nextElementSibling?.textContent).toBe('Self');
    expect(facts.getByText('Date of birth').nextElementSibling?.textContent).toBe('04/12/1985');
    expect(facts.getByText('Member ID').nextElementSibling?.textContent).toBe('123-456789');
    expect(facts.getByText('Plan eligibility status').nextElementSibling?.textContent).toContain('Active');
    // A second click closes it again, still on the menu.
    fireEvent.click(self);
    await waitFor(() => expect(self.getAttribute('aria-expanded')).toBe('false'));
    expect(summary.hidden).toBe(true);
    fireEvent.click(self);
    fireEvent.click(await facts.findByRole('link', { name: 'View personal details' }));
    expect(await screen.findByText('personal page')).toBeTruthy();
  });

  it("offers a family member without a provider the red Select Provider, acting on them", async () => {
    const { router } = renderAccount(memberFixture(), '/account/details?panel=family', { 'GET /member/app/family/members': { body: [john] } });
    fireEvent.click(await screen.findByRole('link', { name: 'Select Provider' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/marketplace'));
    expect(selectedDependent.get()).toBe(21);
  });

  it('saves an edited family member through PUT /member/app/family/member/{id} with the contract fields', async () => {
    const { calls } = renderAccount(memberFixture(), '/account/edit-dependent/21', {
      'GET /member/app/family/member/21': { body: john },
      'PUT /member/app/family/member/21': { body: { ...john, firstName: 'Johnny' } },
    });
    const first = await screen.findByLabelText('First name');
    fireEvent.change(first, { target: { value: 'Johnny' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Information' }));
    expect(await screen.findByRole('dialog', { name: "Great! You're all set." })).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.init?.method === 'PUT')!)).toEqual({
      firstName: 'Johnny',
      lastName: 'Doe',
      email: 'john@acme.example',
      gender: 'm',
      phone: '303 555 0101',
      dob: '1984-09-30',
    });
  });

  it('builds the family update from the record, leaving blanks out', () => {
    expect(familyUpdateBody({ firstName: 'Emma', lastName: 'Doe', email: null, gender: 'f', zipCode: '', phone: '303 555 0102', dob: '2016-06-01' }, { phone: '720 555 0100' })).toEqual({
      firstName: 'Emma',
      lastName: 'Doe',
      gender: 'f',
      phone: '720 555 0100',
      dob: '2016-06-01',
    });
  });
});
