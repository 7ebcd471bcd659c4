import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AddFamilyMemberPage } from '@/features/eligibility/components/add-family-member-page';
import { redirectTarget } from '@/lib/storage';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderRoutes, signIn } from '@/test/render';
import { AccountDetailsPage } from '@/features/account/components/account-details-page';

type Answer = { status?: number; body: unknown };

const john = {
  id: 21,
  firstName: 'John',
  lastName: 'Doe',
  subscriberRelation: 'Spouse' as const,
  dob: '1984-09-30',
  gender: 'm',
  email: 'john@acme.example',
  phone: '303 555 0101',
  zipCode: null,
  memberId: '123-456790',
  planId: 'PLN-1001',
  nextStep: 'selectDPC',
  eligibility: { status: null },
  subscription: { status: null },
  providerId: null,
  locationId: null,
  location: null,
};
const emma = { ...john, id: 22, firstName: 'Emma', subscriberRelation: 'Dependent' as const, dob: '2016-06-01', gender: 'f', eligibility: { status: 'active' } };

function renderPanel(extra: Record<string, Answer>, member = memberFixture()) {
  signIn();
  const fetched = mockFetch((url, init) => {
    if (url.pathname === '/member/app/member/info') return { body: member };
    return extra[`${init?.method ?? 'GET'} ${url.pathname}`];
  });
  const rendered = renderRoutes({ '/account/details': <AccountDetailsPage />, '/add-family-member': <AddFamilyMemberPage /> }, '/account/details?panel=family');
  return { ...fetched, ...rendered };
}

describe('family panel: Confirm Eligibility', () => {
  it('is offered only for family members whose eligibility is not active', async () => {
    renderPanel({ 'GET /member/app/family/members': { body: [john, emma] } });
    expect(await screen.findByRole('button', { name: 'Confirm eligibility for John Doe' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm eligibility for Emma Doe' })).toBeNull();
    const [johnItem, emmaItem] = screen.getAllByTestId('family-member');
    expect(within(johnItem!).getByText('Plan eligibility status')).toBeTruthy();
    expect(within(johnItem!).getAllByText('Eligibility, not confirmed').length).toBeGreaterThan(0);
    expect(within(emmaItem!).getByText('Active')).toBeTruthy();
  });

  it('is not offered to a family member signed in as themselves', async () => {
    renderPanel({ 'GET /member/app/family/members': { body: [john] } }, memberFixture({ id: 22, subscriberRelation: 'Dependent', subscriberId: 7 }));
    expect(await screen.findByText('John Doe')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm eligibility for John Doe' })).toBeNull();
  });

  it("opens the add-family page in revise mode: prefilled, only confirm/info, then 'Spouse Plan Information Confirmed' and back", async () => {
    const { calls, router } = renderPanel({
      'GET /member/app/family/members': { body: [john] },
      'GET /member/app/family/member/21': { body: john },
      'POST /member/app/family/member/21/confirm/info': { body: { id: 21, eligible: true, eligibility: { code: 200, status: 'active' }, pediatric: { covered: false } } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm eligibility for John Doe' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/add-family-member'));
    expect(router.state.location.state).toEqual({ reviseId: 21 });
    expect(redirectTarget.get()).toBe('/account/details');
    await waitFor(() => expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('John'));
    expect(screen.getByRole('heading', { name: 'Confirm eligibility' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Eligibility' }));
    const dialog = await screen.findByRole('dialog', { name: 'Spouse Plan Information Confirmed' });
    expect(calls.some((call) => call.init?.method === 'POST' && call.url.pathname === '/member/app/family/member')).toBe(false);
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/family/member/21/confirm/info')!)).toMatchObject({ firstName: 'John', lastName: 'Doe', memberId: '123-456790', subscriberRelation: 'Spouse' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
  });
});
