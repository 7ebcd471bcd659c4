import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { clearAccessToken, getAccessToken } from '@/lib/session';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, signIn, renderInAppRouter } from '@/test/render';
import { AddFamilyMemberPage, type AddFamilyState } from './add-family-member-page';

type Answer = { status?: number; body: unknown };

function renderPage(answers: Record<string, Answer | Answer[]>, member = memberFixture(), state?: AddFamilyState) {
  signIn();
  const served: Record<string, number> = {};
  const fetched = mockFetch((url, init) => {
    if (url.pathname === '/member/app/member/info') return { body: member };
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const answer = answers[key];
    if (!Array.isArray(answer)) return answer;
    served[key] = (served[key] ?? 0) + 1;
    return answer[Math.min(served[key]! - 1, answer.length - 1)];
  });
  const { router } = renderInAppRouter(
    [
      { path: '/add-family-member', element: <AddFamilyMemberPage /> },
      { path: '/account/details', element: <p>account page</p> },
      { path: '/marketplace', element: <p>marketplace page</p> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { pathname: '/add-family-member', state: state ?? null },
  );
  return { ...fetched, router };
}

async function fillJohn(relation: 'Spouse' | 'Dependent' = 'Spouse') {
  fireEvent.change(await screen.findByLabelText('Relationship'), { target: { value: relation } });
  fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'John' } });
  fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Doe' } });
  fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '09301984' } });
  fireEvent.change(screen.getByLabelText('Gender'), { target: { value: 'm' } });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'john@acme.example' } });
  fireEvent.change(screen.getByLabelText('Mobile phone'), { target: { value: '3035550101' } });
  fireEvent.change(screen.getByLabelText('Member ID'), { target: { value: '123-456790' } });
}

function submit() {
  fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
}

const created = { status: 201, body: { id: 21 } };
const eligible = { body: { id: 21, eligible: true, eligibility: { code: 200, status: 'active' }, pediatric: { covered: true } } };
const enrolledAnswer = { body: { message: 'You have been enrolled with Front Range Direct Primary Care', changed: false, nextStep: 'complete' } };

/** A confirm/info answer that did not confirm, as the server writes it. */
function notConfirmed(code: string, message: string, status: number, chcDown = false): Answer {
  return { body: { id: 21, eligible: false, code, message, eligibility: { code: status, status: null, err: { chcDown } }, pediatric: { covered: false } } };
}

const buttonsOf = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('button')
    .map((button) => button.textContent)
    .filter(Boolean);

describe('add a family member', () => {
  it('creates, confirms, enrols in the same DPC and ends on Spouse Enrolled Successfully (a spouse is not called a dependent)', async () => {
    redirectTarget.set('/account/details');
    const { calls, router } = renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': eligible,
      'POST /member/app/family/member/21/set/provider': enrolledAnswer,
    });
    await fillJohn();
    submit();
    const added = await screen.findByRole('dialog', { name: "Success! You've added your spouse" });
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/family/member')!)).toMatchObject({
      subscriberRelation: 'Spouse',
      firstName: 'John',
      lastName: 'Doe',
      dob: '1984-09-30',
      gender: 'm',
      email: 'john@acme.example',
      phone: '303 555 0101',
      memberId: '123-456790',
      planId: 'PLN-1001',
      useMyContact: false,
    });
    fireEvent.click(within(added).getByRole('button', { name: 'Enroll in the same DPC as main account' }));
    const enrolled = await screen.findByRole('dialog', { name: 'Spouse Enrolled Successfully' });
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/family/member/21/set/provider')!)).toEqual({ providerId: 1, locationId: 1 });
    expect(buttonsOf(enrolled)).toEqual(['Add another family member', 'Okay']);
    fireEvent.click(within(enrolled).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
    expect(selectedDependent.get()).toBeNull();
  });

  it("ends the eligibility flow's enrolment with 'I'm all set' and 'Add another'", async () => {
    const { router } = renderPage(
      {
        'POST /member/app/family/member': created,
        'POST /member/app/family/member/21/confirm/info': eligible,
        'POST /member/app/family/member/21/set/provider': enrolledAnswer,
      },
      memberFixture(),
      { from: '/confirm-plan-information' },
    );
    await fillJohn();
    submit();
    fireEvent.click(within(await screen.findByRole('dialog', { name: "Success! You've added your spouse" })).getByRole('button', { name: 'Enroll in the same DPC as main account' }));
    const enrolled = await screen.findByRole('dialog', { name: 'Family member enrolled' });
    expect(buttonsOf(enrolled)).toEqual(['Add another', "I'm all set"]);
    fireEvent.click(within(enrolled).getByRole('button', { name: "I'm all set" }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
  });

  it('Add another clears the form for the next family member', async () => {
    renderPage(
      {
        'POST /member/app/family/member': created,
        'POST /member/app/family/member/21/confirm/info': eligible,
        'POST /member/app/family/member/21/set/provider': enrolledAnswer,
      },
      memberFixture(),
      { from: '/confirm-plan-information' },
    );
    await fillJohn();
    submit();
    fireEvent.click(within(await screen.findByRole('dialog', { name: "Success! You've added your spouse" })).getByRole('button', { name: 'Enroll in the same DPC as main account' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Family member enrolled' })).getByRole('button', { name: 'Add another' }));
    await waitFor(() => expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe(''));
    expect(selectedDependent.get()).toBeNull();
    expect((screen.getByRole('button', { name: 'Confirm Eligibility' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("keeps the new id after a failed confirmation, so Revise Information only confirms again", async () => {
    const { calls } = renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': [
        notConfirmed('eligibility_not_verified', 'We were unable to verify eligibility. Please enter subscriber information and resubmit.', 400),
        eligible,
      ],
    });
    await fillJohn();
    submit();
    const failed = await screen.findByRole('dialog', { name: "Oops. We were not able to confirm your spouse's eligibility." });
    expect(within(failed).getByText('Please review and update the information, or contact support.')).toBeTruthy();
    expect(buttonsOf(failed)).toEqual(['Fix later', 'Revise Information']);
    fireEvent.click(within(failed).getByRole('button', { name: 'Revise Information' }));
    submit();
    expect(await screen.findByRole('dialog', { name: "Success! You've added your spouse" })).toBeTruthy();
    expect(calls.filter((call) => call.url.pathname === '/member/app/family/member')).toHaveLength(1);
    expect(calls.filter((call) => call.url.pathname === '/member/app/family/member/21/confirm/info')).toHaveLength(2);
  });

  it('Fix later leaves for the account details', async () => {
    redirectTarget.set('/account/details');
    const { router } = renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': notConfirmed('eligibility_not_verified', 'We were unable to verify eligibility.', 400),
    });
    await fillJohn();
    submit();
    fireEvent.click(within(await screen.findByRole('dialog', { name: "Oops. We were not able to confirm your spouse's eligibility." })).getByRole('button', { name: 'Fix later' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
  });

  it('says when the family member is not eligible on this plan', async () => {
    renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': notConfirmed('not_eligible_on_plan', 'Oops! It seems that you are not eligible on this plan.', 401),
    });
    await fillJohn();
    submit();
    const failed = await screen.findByRole('dialog', { name: "Oops. We were not able to confirm your spouse's eligibility." });
    expect(within(failed).getByText('Oops! It seems that you are not eligible on this plan.')).toBeTruthy();
  });

  it('member_exists from the confirmation opens the exists dialog with Add another family member (for a spouse) and Okay', async () => {
    renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': notConfirmed('member_exists', 'Member already exists', 400),
    });
    await fillJohn();
    submit();
    const exists = await screen.findByRole('dialog', { name: 'Oops, it seems an account already exists with this information.' });
    expect(within(exists).getByText('Member already exists')).toBeTruthy();
    expect(buttonsOf(exists)).toEqual(['Add another family member', 'Okay']);
  });

  it('eligibility_unavailable (chcDown) opens the retry text', async () => {
    const { router } = renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': notConfirmed('eligibility_unavailable', 'Eligibility could not be checked right now.', 500, true),
    });
    await fillJohn();
    submit();
    const retry = await screen.findByRole('dialog', { name: 'We are having temporary issues' });
    expect(within(retry).getByText('Your information is saved. Our system will retry confirming your eligibility and notify you by email.')).toBeTruthy();
    fireEvent.click(within(retry).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/marketplace'));
  });

  it("a failed confirm/info call shows the family member's text with the server's message", async () => {
    renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': { status: 429, body: { message: 'Too many eligibility checks. Please try again later.', code: 'rate_limited' } },
    });
    await fillJohn();
    submit();
    const failed = await screen.findByRole('dialog', { name: "Oops. We were not able to confirm your family member's eligibility." });
    expect(within(failed).getByText('Too many eligibility checks. Please try again later.')).toBeTruthy();
  });

  it('offers only Select a provider when the subscriber has no provider', async () => {
    renderPage(
      {
        'POST /member/app/family/member': created,
        'POST /member/app/family/member/21/confirm/info': eligible,
      },
      memberFixture({ providerId: null, locationId: null, location: null }),
    );
    await fillJohn();
    submit();
    const dialog = await screen.findByRole('dialog', { name: "Success! You've added your spouse" });
    expect(buttonsOf(dialog)).toEqual(['Select a provider']);
  });

  it('offers only Select a provider when pediatric care is not covered (covered: 0)', async () => {
    const { router } = renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': { body: { id: 21, eligible: 1, eligibility: { code: 200, status: 'active' }, pediatric: { covered: 0 } } },
    });
    await fillJohn('Dependent');
    submit();
    const dialog = await screen.findByRole('dialog', { name: 'Pediatric provider needed' });
    expect(within(dialog).getByText('This clinic does not offer pediatric services. Please find another DPC clinic for this dependent.')).toBeTruthy();
    expect(buttonsOf(dialog)).toEqual(['Select a provider']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Select a provider' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/marketplace'));
    expect(router.state.location.search).toBe('?selectProvider=true');
    expect(selectedDependent.get()).toBe(21);
  });

  it("shows the server's message when the family member already exists", async () => {
    renderPage({ 'POST /member/app/family/member': { status: 409, body: { message: 'This family member already exists in your account.', code: 'member_exists' } } });
    await fillJohn();
    submit();
    const dialog = await screen.findByRole('dialog', { name: 'Oops, it seems an account already exists with this information.' });
    expect(within(dialog).getByText('This family member already exists in your account.')).toBeTruthy();
    expect(buttonsOf(dialog)).toEqual(['Add another family member', 'Okay']);
  });

  it("any other create failure shows the server's message in the error dialog", async () => {
    renderPage({ 'POST /member/app/family/member': { status: 400, body: { message: 'The roster could not be reached', code: 'roster_unavailable' } } });
    await fillJohn();
    submit();
    const dialog = await screen.findByRole('dialog', { name: 'Oops. Something went wrong' });
    expect(within(dialog).getByText('The roster could not be reached')).toBeTruthy();
  });

  it('a create refusal naming a field of the form shows at that field, not in a dialog', async () => {
    renderPage({ 'POST /member/app/family/member': { status: 400, body: { message: 'Special characters not allowed', code: 'special_characters', field: 'memberId' } } });
    await fillJohn();
    submit();
    expect(await screen.findByText('Special characters not allowed')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Oops. Something went wrong' })).toBeNull();
  });

  it("a refused enrolment shows the dependent error with the server's message", async () => {
    renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': eligible,
      'POST /member/app/family/member/21/set/provider': { status: 409, body: { message: 'This location is not accepting new patients at the moment', code: 'not_accepting' } },
    });
    await fillJohn();
    submit();
    fireEvent.click(within(await screen.findByRole('dialog', { name: "Success! You've added your spouse" })).getByRole('button', { name: 'Enroll in the same DPC as main account' }));
    const dialog = await screen.findByRole('dialog', { name: "Something went wrong while selecting for John's provider." });
    expect(within(dialog).getByText('This location is not accepting new patients at the moment')).toBeTruthy();
    expect(selectedDependent.get()).toBeNull();
  });

  it("says 'No Dependent ID was found' when no dependent is stored", async () => {
    const { calls } = renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': eligible,
    });
    await fillJohn();
    submit();
    const added = await screen.findByRole('dialog', { name: "Success! You've added your spouse" });
    selectedDependent.set(null);
    fireEvent.click(within(added).getByRole('button', { name: 'Enroll in the same DPC as main account' }));
    const dialog = await screen.findByRole('dialog', { name: "Something went wrong while selecting for John's provider." });
    expect(within(dialog).getByText('No Dependent ID was found')).toBeTruthy();
    expect(calls.some((call) => call.url.pathname.endsWith('/set/provider'))).toBe(false);
  });
});

describe('the add-family form', () => {
  it('shows each rule message when a field is left, while Confirm stays disabled', async () => {
    renderPage({});
    const relation = await screen.findByLabelText('Relationship');
    const confirm = screen.getByRole('button', { name: 'Confirm Eligibility' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    expect(screen.queryByText('This field is required')).toBeNull();
    fireEvent.blur(relation);
    fireEvent.blur(screen.getByLabelText('First name'));
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    const email = screen.getByLabelText('Email');
    fireEvent.change(email, { target: { value: 'john@' } });
    fireEvent.blur(email);
    expect(screen.getByText('E-mail must be valid')).toBeTruthy();
    const phone = screen.getByLabelText('Mobile phone');
    fireEvent.change(phone, { target: { value: '30355' } });
    fireEvent.blur(phone);
    expect(screen.getByText('Phone number must be in a valid format (XXX XXX XXXX)')).toBeTruthy();
    const memberId = screen.getByLabelText('Member ID');
    fireEvent.change(memberId, { target: { value: 'ABC-456790' } });
    fireEvent.blur(memberId);
    expect(screen.getByText('ID should contain 9 digits, Please enter your ID in XXX-XXXXXX format')).toBeTruthy();
    const dob = screen.getByLabelText('Date of birth');
    fireEvent.change(dob, { target: { value: '093084' } });
    fireEvent.blur(dob);
    expect(screen.getByText('Invalid date format')).toBeTruthy();
    // Untouched fields stay quiet.
    expect(screen.getByLabelText('Last name').getAttribute('aria-invalid')).toBeNull();
    expect(confirm.disabled).toBe(true);
  });

  it("hides 'Use my contact information' for a Spouse and shows it for a Dependent", async () => {
    renderPage({});
    const relation = await screen.findByLabelText('Relationship');
    fireEvent.change(relation, { target: { value: 'Spouse' } });
    expect(screen.queryByLabelText('Use my contact information')).toBeNull();
    fireEvent.change(relation, { target: { value: 'Dependent' } });
    expect(screen.getByLabelText('Use my contact information')).toBeTruthy();
  });

  it("ticking 'Use my contact information' sends the subscriber's email and phone", async () => {
    const { calls } = renderPage({
      'POST /member/app/family/member': created,
      'POST /member/app/family/member/21/confirm/info': eligible,
    });
    fireEvent.change(await screen.findByLabelText('Relationship'), { target: { value: 'Dependent' } });
    fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Emma' } });
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Doe' } });
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '06012016' } });
    fireEvent.change(screen.getByLabelText('Gender'), { target: { value: 'f' } });
    fireEvent.change(screen.getByLabelText('Member ID'), { target: { value: '123-456791' } });
    fireEvent.click(screen.getByLabelText('Use my contact information'));
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.value).toBe('jane.doe@acme.example');
    expect(email.disabled).toBe(true);
    expect((screen.getByLabelText('Mobile phone') as HTMLInputElement).value).toBe('303 555 0100');
    submit();
    await screen.findByRole('dialog', { name: "Success! You've added a dependent" });
    const sent = bodyOf(calls.find((call) => call.url.pathname === '/member/app/family/member')!);
    expect(sent).toMatchObject({ subscriberRelation: 'Dependent', email: 'jane.doe@acme.example', phone: '303 555 0100', useMyContact: true });
  });
});

describe('revise mode (Confirm Eligibility from the family panel)', () => {
  const stored = {
    id: 21,
    firstName: 'John',
    lastName: 'Doe',
    dob: '1984-09-30',
    gender: 'm',
    email: 'john@acme.example',
    phone: '3035550101',
    zipCode: null,
    subscriberRelation: 'Spouse',
    memberId: '123-456790',
    planId: 'PLN-1001',
    nextStep: 'selectDPC',
    eligibility: { status: null },
    providerId: null,
    locationId: null,
  };

  it("prefills the stored member, sends only confirm/info and shows 'Spouse Plan Information Confirmed'", async () => {
    redirectTarget.set('/account/details');
    const { calls, router } = renderPage(
      {
        'GET /member/app/family/member/21': { body: stored },
        'POST /member/app/family/member/21/confirm/info': eligible,
      },
      memberFixture(),
      { reviseId: 21 },
    );
    await waitFor(() => expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('John'));
    expect((screen.getByLabelText('Relationship') as HTMLSelectElement).value).toBe('Spouse');
    expect((screen.getByLabelText('Date of birth') as HTMLInputElement).value).toBe('09/30/1984');
    expect((screen.getByLabelText('Mobile phone') as HTMLInputElement).value).toBe('303 555 0101');
    expect((screen.getByLabelText('Member ID') as HTMLInputElement).value).toBe('123-456790');
    fireEvent.change(screen.getByLabelText('Member ID'), { target: { value: '123-456799' } });
    submit();
    const confirmed = await screen.findByRole('dialog', { name: 'Spouse Plan Information Confirmed' });
    expect(buttonsOf(confirmed)).toEqual(['Add another family member', 'Okay']);
    expect(calls.some((call) => call.init?.method === 'POST' && call.url.pathname === '/member/app/family/member')).toBe(false);
    const sent = calls.filter((call) => call.url.pathname === '/member/app/family/member/21/confirm/info');
    expect(sent).toHaveLength(1);
    expect(bodyOf(sent[0]!)).toMatchObject({ subscriberRelation: 'Spouse', firstName: 'John', dob: '1984-09-30', memberId: '123-456799', email: 'john@acme.example', phone: '303 555 0101' });
    fireEvent.click(within(confirmed).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
  });

  it('a revise that is still not confirmed offers Fix later and Revise Information, and confirms again only', async () => {
    const { calls } = renderPage(
      {
        'GET /member/app/family/member/21': { body: stored },
        'POST /member/app/family/member/21/confirm/info': [notConfirmed('eligibility_not_verified', 'We were unable to verify eligibility.', 400), eligible],
      },
      memberFixture(),
      { reviseId: 21 },
    );
    await waitFor(() => expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('John'));
    submit();
    fireEvent.click(within(await screen.findByRole('dialog', { name: "Oops. We were not able to confirm your spouse's eligibility." })).getByRole('button', { name: 'Revise Information' }));
    submit();
    expect(await screen.findByRole('dialog', { name: 'Spouse Plan Information Confirmed' })).toBeTruthy();
    expect(calls.filter((call) => call.url.pathname === '/member/app/family/member/21/confirm/info')).toHaveLength(2);
    expect(calls.some((call) => call.init?.method === 'POST' && call.url.pathname === '/member/app/family/member')).toBe(false);
  });

  it("shows 'No Dependent ID was found' when the stored member is gone", async () => {
    renderPage({ 'GET /member/app/family/member/99': { status: 404, body: { message: 'No Dependent ID was found', code: 'not_found' } } }, memberFixture(), { reviseId: 99 });
    expect(await screen.findByText('No Dependent ID was found')).toBeTruthy();
  });

  it('signs in with the ?token= of an email link and drops it from the address (spec 2.1)', async () => {
    clearAccessToken();
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/member/info' ? { body: memberFixture() } : undefined));
    const { router } = renderInAppRouter([{ path: '/add-family-member', element: <AddFamilyMemberPage /> }], '/add-family-member?token=link.access.token');
    expect(await screen.findByLabelText('Relationship')).toBeTruthy();
    expect(getAccessToken()).toBe('link.access.token');
    expect(router.state.location.search).toBe('');
    expect(calls.some((call) => call.url.pathname === '/member/app/member/info')).toBe(true);
  });
});
