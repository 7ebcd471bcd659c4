import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderRoutes, signIn } from '@/test/render';
import { AddFamilyMemberPage } from './add-family-member-page';

type Answer = { status?: number; body: unknown };

function renderPage(answers: Record<string, Answer | Answer[]>, member = memberFixture()) {
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
  const rendered = renderRoutes({ '/add-family-member': <AddFamilyMemberPage />, '/account/details': <p>account page</p>, '/marketplace': <p>marketplace page</p> }, '/add-family-member');
  return { ...fetched, ...rendered };
}

async function fillJohn() {
  fireEvent.change(await screen.findByLabelText('Relationship'), { target: { value: 'Spouse' } });
  fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'John' } });
  fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Doe' } });
  fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '09301984' } });
  fireEvent.change(screen.getByLabelText('Gender'), { target: { value: 'm' } });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'john@acme.example' } });
  fireEvent.change(screen.getByLabelText('Mobile phone'), { target: { value: '3035550101' } });
  fireEvent.change(screen.getByLabelText('Member ID'), { target: { value: '123-456790' } });
}

const eligible = { body: { eligible: true, eligibility: { code: 200, status: 'active' }, pediatric: { covered: true } } };

describe('add a family member', () => {
  it('creates, confirms, enrols in the same DPC and ends on Dependent Enrolled Successfully', async () => {
    redirectTarget.set('/account/details');
    const { calls, router } = renderPage({
      'POST /member/app/family/member': { status: 201, body: { id: 21 } },
      'POST /member/app/family/member/21/confirm/info': eligible,
      'POST /member/app/family/member/21/set/provider': { body: { message: 'You have been enrolled with Front Range Direct Primary Care', changed: false, nextStep: 'complete' } },
    });
    await fillJohn();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const added = await screen.findByRole('dialog', { name: "Success! You've added a dependent" });
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
    const enrolled = await screen.findByRole('dialog', { name: 'Dependent Enrolled Successfully' });
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/family/member/21/set/provider')!)).toEqual({ providerId: 1, locationId: 1 });
    expect(within(enrolled).getByRole('button', { name: 'Add another dependent' })).toBeTruthy();
    fireEvent.click(within(enrolled).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
    expect(selectedDependent.get()).toBeNull();
  });

  it('keeps the new id after a failed confirmation, so Revise Information only confirms again', async () => {
    const { calls } = renderPage({
      'POST /member/app/family/member': { status: 201, body: { id: 21 } },
      'POST /member/app/family/member/21/confirm/info': [{ body: { eligible: false, eligibility: { code: 400 }, pediatric: { covered: false } } }, eligible],
    });
    await fillJohn();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const failed = await screen.findByRole('dialog', { name: "Oops. We were not able to confirm your family member's eligibility." });
    expect(within(failed).getByRole('button', { name: 'Fix later' })).toBeTruthy();
    fireEvent.click(within(failed).getByRole('button', { name: 'Revise Information' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    expect(await screen.findByRole('dialog', { name: "Success! You've added a dependent" })).toBeTruthy();
    expect(calls.filter((call) => call.url.pathname === '/member/app/family/member')).toHaveLength(1);
    expect(calls.filter((call) => call.url.pathname === '/member/app/family/member/21/confirm/info')).toHaveLength(2);
  });

  it('offers only Select a provider when pediatric care is not covered, or the subscriber has no provider', async () => {
    renderPage(
      {
        'POST /member/app/family/member': { status: 201, body: { id: 21 } },
        'POST /member/app/family/member/21/confirm/info': eligible,
      },
      memberFixture({ providerId: null, locationId: null, location: null }),
    );
    await fillJohn();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const dialog = await screen.findByRole('dialog', { name: "Success! You've added a dependent" });
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['', 'Select a provider']);
  });

  it("shows the server's message when the family member already exists", async () => {
    renderPage({ 'POST /member/app/family/member': { status: 409, body: { message: 'This family member already exists in your account.', code: 'member_exists' } } });
    await fillJohn();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const dialog = await screen.findByRole('dialog', { name: 'We could not add this family member' });
    expect(within(dialog).getByText('This family member already exists in your account.')).toBeTruthy();
  });

  it("a refused enrolment shows the dependent error with the server's message", async () => {
    renderPage({
      'POST /member/app/family/member': { status: 201, body: { id: 21 } },
      'POST /member/app/family/member/21/confirm/info': eligible,
      'POST /member/app/family/member/21/set/provider': { status: 409, body: { message: 'This location is not accepting new patients at the moment', code: 'not_accepting' } },
    });
    await fillJohn();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: "Success! You've added a dependent" })).getByRole('button', { name: 'Enroll in the same DPC as main account' }));
    const dialog = await screen.findByRole('dialog', { name: "Something went wrong while selecting for John's provider." });
    expect(within(dialog).getByText('This location is not accepting new patients at the moment')).toBeTruthy();
    expect(selectedDependent.get()).toBeNull();
  });
});
