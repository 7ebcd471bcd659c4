import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Member } from '@/lib/member';
import { getAccessToken } from '@/lib/session';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, signIn, renderInAppRouter } from '@/test/render';
import { ConfirmPlanPage } from './confirm-plan-page';

/** A member who signed up and still has to confirm: no insurance details yet. */
function newMember(overrides: Partial<Member> = {}): Member {
  return memberFixture({
    firstName: '',
    lastName: '',
    dob: null,
    gender: null,
    phone: null,
    memberId: null,
    planId: null,
    payerId: null,
    nextStep: 'confirmPlan',
    setup: 'incomplete',
    eligibility: { status: null },
    subscription: null,
    location: null,
    ...overrides,
  });
}

type Answer = { status?: number; body: unknown };

function setup(member: Member, confirm: Answer | ((body: Record<string, unknown>) => Answer) = { body: {} }, extra: Record<string, Answer> = {}) {
  signIn();
  const fetched = mockFetch((url, init) => {
    if (url.pathname === '/member/app/member/info') return { body: member };
    if (url.pathname === '/member/app/market/provider/1') return { body: { id: 1, companyName: 'Front Range Direct Primary Care', contact: { address1: '1600 Champa St', city: 'Denver', state: 'CO', zipCode: '80202' } } };
    if (url.pathname === '/member/app/confirm/info') return typeof confirm === 'function' ? confirm(JSON.parse(String(init?.body))) : confirm;
    return extra[url.pathname];
  });
  const { router } = renderInAppRouter(
    [
      { path: '/confirm-plan-information', element: <ConfirmPlanPage /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    '/confirm-plan-information',
  );
  return { ...fetched, router };
}

function type(label: string, value: string) {
  const field = screen.getByLabelText(label);
  fireEvent.change(field, { target: { value } });
  fireEvent.blur(field);
}

async function fillJane() {
  await screen.findByLabelText('First name');
  type('First name', 'Jane');
  type('Last name', 'Doe');
  type('Date of birth', '04121985');
  fireEvent.change(screen.getByLabelText('Gender'), { target: { value: 'f' } });
  type('Mobile phone', '3035550100');
  type('Member ID', '123-456789');
}

describe('eligibility confirmation', () => {
  it('shows the 4-step header and the provider card for a member with a provider', async () => {
    setup(newMember());
    const steps = await screen.findByRole('list', { name: 'Enrolment steps' });
    expect(within(steps).getAllByRole('listitem').map((item) => item.textContent?.replace(/\d|\(done\)/g, '').trim())).toEqual([
      'Select Provider',
      'Create account',
      'Verify your eligibility',
      'Schedule your first visit',
    ]);
    expect(await screen.findByText('Front Range Direct Primary Care')).toBeTruthy();
    expect(screen.getByText('1600 Champa St')).toBeTruthy();
  });

  it('ticks Create account for a member whose email still waits for its link, whom the verify-email dialog asks', async () => {
    setup(newMember({ emailVerified: false, email: 'a.rather.long.company.address.for.a.phone@subsidiary.acme-corporation.example' }));
    await screen.findByRole('dialog', { name: 'Verify your email' });
    const steps = screen.getByRole('list', { name: 'Enrolment steps' });
    const createAccount = within(steps).getAllByRole('listitem')[1]!;
    expect(createAccount.textContent).toContain('(done)');
  });

  it('preselects a sole payer (no payer field) and auto-selects its sole plan', async () => {
    setup(newMember());
    await screen.findByLabelText('First name');
    expect(screen.queryByLabelText('Payer ID')).toBeNull();
    await waitFor(() => expect((screen.getByLabelText('Health plan') as HTMLSelectElement).value).toBe('PLN-1001'));
  });

  it('shows the payer field with several payers and locks the plan until one is chosen', async () => {
    setup(
      newMember({
        payers: [
          { payerId: '60054', payerName: 'Cascade Health Plan', plans: [{ planId: 'PLN-1001', name: 'Cascade Gold PPO' }] },
          {
            payerId: '70001',
            payerName: 'Summit',
            plans: [
              { planId: 'PLN-2001', name: 'Summit Silver' },
              { planId: 'PLN-2002', name: 'Summit Bronze' },
            ],
          },
        ],
      }),
    );
    const payer = (await screen.findByLabelText('Payer ID')) as HTMLSelectElement;
    const plan = screen.getByLabelText('Health plan') as HTMLSelectElement;
    expect(plan.disabled).toBe(true);
    fireEvent.change(payer, { target: { value: '60054' } });
    expect(plan.disabled).toBe(false);
    expect(plan.value).toBe('PLN-1001');
    fireEvent.change(payer, { target: { value: '70001' } });
    expect(plan.value).toBe('');
    expect([...plan.options].map((option) => option.textContent)).toEqual(['Select your plan', 'Summit Silver', 'Summit Bronze']);
  });

  it('validates the form, masks the date and phone, and asks for the employee ID for a spouse', async () => {
    setup(newMember());
    await screen.findByLabelText('First name');
    const confirm = screen.getByRole('button', { name: 'Confirm Eligibility' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    type('First name', '');
    expect(screen.getByText('This field is required')).toBeTruthy();
    type('Date of birth', '041285');
    expect((screen.getByLabelText('Date of birth') as HTMLInputElement).value).toBe('04/12/85');
    expect(screen.getByText('Invalid date format')).toBeTruthy();
    // A digit too many is kept (never dropped silently), and the message points at it.
    type('Mobile phone', '30355501009');
    expect((screen.getByLabelText('Mobile phone') as HTMLInputElement).value).toBe('303 555 01009');
    expect(screen.getByText('Phone number must be in a valid format (XXX XXX XXXX)')).toBeTruthy();
    type('Member ID', '123 456');
    expect(screen.getByText('Special characters not allowed')).toBeTruthy();
    expect(screen.queryByLabelText("Employee's member ID")).toBeNull();
    fireEvent.change(screen.getByLabelText(/Relationship to subscriber/), { target: { value: 'Spouse' } });
    expect(screen.getByLabelText("Employee's member ID")).toBeTruthy();
    expect(screen.getByRole('tooltip').textContent).toBe('person whose employment makes them eligible for group health insurance');
  });

  it('sends the roster fields with the date as YYYY-MM-DD and goes to the membership card', async () => {
    const { calls, router } = setup(newMember(), { body: { newAccessToken: 'fresh.access.token', nextStep: 'complete', hasFamily: false, providerId: 1, locationId: 1 } }, {
      '/member/app/provider/1/postenrollment': { body: { postMemberEnrollment: null } },
    });
    await fillJane();
    const confirm = screen.getByRole('button', { name: 'Confirm Eligibility' }) as HTMLButtonElement;
    await waitFor(() => expect(confirm.disabled).toBe(false));
    fireEvent.click(confirm);
    const dialog = await screen.findByRole('dialog', { name: /You're enrolled with/ });
    const sent = bodyOf(calls.find((call) => call.url.pathname === '/member/app/confirm/info')!);
    expect(sent).toMatchObject({
      firstName: 'Jane',
      lastName: 'Doe',
      dob: '1985-04-12',
      gender: 'f',
      memberId: '123-456789',
      planId: 'PLN-1001',
      payerId: '60054',
      groupId: '1000011',
      phone: '303 555 0100',
      subscriberRelation: 'Self',
      employerId: 1,
    });
    expect(getAccessToken()).toBe('fresh.access.token');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/membership'));
  });

  it("shows the server's refusal of one field (a date of birth in the future) at that field, not in the error dialog", async () => {
    setup(newMember(), { status: 400, body: { message: 'Date of birth cannot be in the future', code: 'invalid_date', field: 'dob' } });
    await fillJane();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const field = screen.getByLabelText('Date of birth');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const described = (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '');
    expect(described.join(' ')).toContain('Date of birth cannot be in the future');
    expect(screen.queryByRole('dialog', { name: 'Oops. Something went wrong' })).toBeNull();
    // Changing the field takes the server's word away.
    type('Date of birth', '04121986');
    await waitFor(() => expect(screen.queryByText('Date of birth cannot be in the future')).toBeNull());
  });

  it('tells a member whose chosen clinic filled up meanwhile that it stopped accepting them, and offers another provider or its waitlist', async () => {
    const message =
      'Front Range DPC – LoDo stopped accepting new patients, so you were not enrolled there. Your eligibility is confirmed: choose another provider, or join its waitlist to be emailed when it accepts new patients again.';
    const { router } = setup(newMember(), {
      body: { nextStep: 'selectDPC', hasFamily: false, providerId: null, locationId: null, notEnrolled: { code: 'not_accepting', message, location: { id: 4, providerId: 1 } } },
    });
    await fillJane();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eligibility confirmed!' });
    expect(within(dialog).getByText(message)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Select my provider now' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Join its waitlist' }));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/marketplace/provider/details/1?location=4'));
  });

  it('asks a Self subscriber with family whether to add them', async () => {
    setup(newMember(), { body: { nextStep: 'complete', hasFamily: true, providerId: 1, locationId: 1 } }, { '/member/app/provider/1/postenrollment': { body: {} } });
    await fillJane();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eligibility confirmed!' });
    expect(within(dialog).getByRole('button', { name: "No I'm all set" })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Yes' })).toBeTruthy();
  });

  it('opens the subscriber dialog for wrong data, then could-not-confirm, then the banner after Review information', async () => {
    setup(newMember(), { status: 400, body: { message: 'We were unable to verify eligibility. Please enter subscriber information and resubmit.', code: 'eligibility_not_verified' } });
    await fillJane();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const dialog = await screen.findByRole('dialog', { name: 'Oops! We could not confirm eligibility.' });
    expect(within(dialog).getByRole('button', { name: 'Fix Later' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review information' }));
    expect(await screen.findByText('Eligibility could not be verified')).toBeTruthy();
  });

  it('asks a spouse for the subscriber information on wrong data', async () => {
    const { calls } = setup(newMember(), { status: 400, body: { message: 'We were unable to verify eligibility. Please enter subscriber information and resubmit.', code: 'eligibility_not_verified' } });
    await fillJane();
    fireEvent.change(screen.getByLabelText(/Relationship to subscriber/), { target: { value: 'Spouse' } });
    type("Employee's member ID", '123-456789');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const dialog = await screen.findByRole('dialog', { name: 'Subscriber information' });
    fireEvent.change(within(dialog).getByLabelText('Subscriber first name'), { target: { value: 'Jane' } });
    fireEvent.change(within(dialog).getByLabelText('Subscriber last name'), { target: { value: 'Doe' } });
    fireEvent.change(within(dialog).getByLabelText('Subscriber date of birth'), { target: { value: '04121985' } });
    fireEvent.change(within(dialog).getByLabelText('Subscriber gender'), { target: { value: 'f' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resubmit' }));
    await screen.findByRole('dialog', { name: 'Oops! We could not confirm eligibility.' });
    const last = calls.filter((call) => call.url.pathname === '/member/app/confirm/info').at(-1)!;
    expect(bodyOf(last).subscriber).toEqual({ firstName: 'Jane', lastName: 'Doe', dob: '1985-04-12', gender: 'f', memberId: '123-456789' });
  });

  it.each([
    [{ status: 401, body: { message: 'Not eligible on this plan', code: 'not_eligible' } }, 'Oops! It seems that you are not eligible on this plan.'],
    [{ status: 400, body: { message: 'Member already exists', code: 'member_exists' } }, 'Oops, it seems an account already exists with this information.'],
    [{ status: 500, body: { message: 'down', code: 'internal', eligibility: { err: { chcDown: true } } } }, 'We are having temporary issues'],
    [{ status: 500, body: { message: 'down', code: 'internal' } }, 'Oops! It seems our system is down'],
  ])('maps the answer %j to its dialog', async (answer, title) => {
    setup(newMember(), answer);
    await fillJane();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    expect(await screen.findByRole('dialog', { name: title })).toBeTruthy();
  });

  it('asks before leaving with unsaved changes', async () => {
    setup(newMember());
    await fillJane();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Are you sure you want to cancel?' })).toBeTruthy();
  });

  it('holds a navigation away with unsaved changes: No, stay keeps the form; Yes, cancel goes on', async () => {
    const { router } = setup(newMember());
    await fillJane();
    await router.navigate('/marketplace');
    expect(await screen.findByRole('dialog', { name: 'Are you sure you want to cancel?' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/confirm-plan-information');

    fireEvent.click(screen.getByRole('button', { name: 'No, stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Are you sure you want to cancel?' })).toBeNull());
    expect(router.state.location.pathname).toBe('/confirm-plan-information');

    await router.navigate('/marketplace');
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, cancel' }));
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/marketplace');
  });
});

describe('plan choice', () => {
  const twoPlans = () =>
    newMember({
      payers: [
        {
          payerId: '60054',
          payerName: 'Cascade Health Plan',
          plans: [
            { planId: 'PLN-1001', name: 'Cascade Gold PPO', groupId: '1000011' },
            { planId: 'PLN-1002', name: 'Cascade Silver HMO', groupId: '1000011' },
          ],
        },
      ],
    });

  it('auto-selects a single plan without asking', async () => {
    setup(newMember());
    await waitFor(() => expect((screen.getByLabelText('Health plan') as HTMLSelectElement).value).toBe('PLN-1001'));
    expect(screen.queryByRole('dialog', { name: 'Please confirm your plan' })).toBeNull();
  });

  it("asks 'Please confirm your plan' with several plans, and the chosen plan fills the form", async () => {
    setup(twoPlans());
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm your plan' });
    const confirm = within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    expect(within(dialog).getAllByRole('radio')).toHaveLength(2);
    fireEvent.click(within(dialog).getByLabelText(/Cascade Silver HMO/));
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Please confirm your plan' })).toBeNull());
    expect((screen.getByLabelText('Health plan') as HTMLSelectElement).value).toBe('PLN-1002');
  });

  it('Insert Your plan ID: Pull Benefits is disabled until the ID is valid; a lookup error shows err and clears the field; Back returns to the list', async () => {
    const { calls } = setup(twoPlans(), { body: {} }, {
      '/member/app/plan/PLN-404': { status: 404, body: { message: 'We could not find a plan with this ID', code: 'plan_not_found', err: 'We could not find a plan with this ID' } },
    });
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Please confirm your plan' })).getByRole('button', { name: 'My plan is not listed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert Your plan ID' });
    const pull = within(dialog).getByRole('button', { name: 'Pull Benefits' }) as HTMLButtonElement;
    const field = within(dialog).getByLabelText('Plan ID') as HTMLInputElement;
    expect(pull.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'PLN 404' } });
    fireEvent.blur(field);
    expect(pull.disabled).toBe(true);
    expect(within(dialog).getByText('Special characters not allowed')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'PLN-404' } });
    expect(pull.disabled).toBe(false);
    fireEvent.click(pull);
    expect(await within(dialog).findByText('We could not find a plan with this ID')).toBeTruthy();
    expect(field.value).toBe('');
    expect(pull.disabled).toBe(true);
    expect(calls.some((call) => call.url.pathname === '/member/app/plan/PLN-404')).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('dialog', { name: 'Please confirm your plan' })).toBeTruthy();
  });

  it('a plan found by its ID joins the list and is selected, and is sent with the confirmation', async () => {
    const { calls } = setup(twoPlans(), { status: 400, body: { message: 'Member already exists', code: 'member_exists' } }, {
      '/member/app/plan/PLN-3001': { body: { planId: 'PLN-3001', name: 'Cascade Bronze EPO', groupId: '1000011', payerId: '60054', payerName: 'Cascade Health Plan' } },
    });
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Please confirm your plan' })).getByRole('button', { name: 'My plan is not listed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert Your plan ID' });
    fireEvent.change(within(dialog).getByLabelText('Plan ID'), { target: { value: 'PLN-3001' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pull Benefits' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Insert Your plan ID' })).toBeNull());
    const plan = screen.getByLabelText('Health plan') as HTMLSelectElement;
    expect(plan.value).toBe('PLN-3001');
    expect([...plan.options].map((option) => option.textContent)).toContain('Cascade Bronze EPO');
    await fillJane();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    await screen.findByRole('dialog', { name: 'Oops, it seems an account already exists with this information.' });
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/confirm/info')!)).toMatchObject({ planId: 'PLN-3001', payerId: '60054' });
  });

  it('the Insert Your plan ID button under the plan opens the dialog directly; Back closes it', async () => {
    setup(newMember());
    await waitFor(() => expect((screen.getByLabelText('Health plan') as HTMLSelectElement).value).toBe('PLN-1001'));
    fireEvent.click(screen.getByRole('button', { name: 'Insert Your plan ID' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert Your plan ID' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Insert Your plan ID' })).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Please confirm your plan' })).toBeNull();
  });
});
