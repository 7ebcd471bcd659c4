import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PanelMember, PanelMemberDetail, PanelPage } from '@/api/clinic-panel/types';
import { mockFetch, renderRoutes } from '@/test/render';
import { historyText, membershipDates, todayForForm } from '../utils/panel';
import { MemberDetailPage } from './member-detail-page';
import { MembersPage } from './members-page';

vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
});

function member(id: number, firstName: string, status: PanelMember['membership']['status'] = 'pending'): PanelMember {
  return {
    id,
    firstName,
    lastName: 'Garcia',
    dob: '1988-02-14',
    phone: '+13035550141',
    email: `${firstName.toLowerCase()}@example.com`,
    memberId: `900-${id}`,
    relation: 'Self',
    employer: 'Acme Corporation',
    plan: 'Cascade Gold PPO',
    eligibility: 'active',
    location: { id: 1, name: 'LoDo' },
    membership: { id: id * 10, status, location: { id: 1, name: 'LoDo' }, enrolledAt: '2026-11-20T10:00:00Z', activeFrom: status === 'active' ? '2026-11-22' : null, activeUntil: null, closedAt: null, reason: null },
  };
}

function page(members: PanelMember[], total = members.length): PanelPage {
  return { status: 'pending', page: 1, pageSize: 20, total, counts: { pending: total, active: 4, past: 1 }, locations: [{ id: 1, name: 'LoDo' }, { id: 3, name: 'Highlands' }], members };
}

describe('the members screen', () => {
  it('shows the New tab with counts, asks the server for the tab, location, search and page, and activates a member', async () => {
    const { calls } = mockFetch((url, init) => {
      if (url.pathname === '/dpcproviders/members') return { body: page([member(41, 'Maria'), member(42, 'Leo')], 25) };
      if (url.pathname === '/dpcproviders/members/41/activate' && init?.method === 'POST') {
        return { body: { message: 'Maria Garcia is now an active member (first visit Nov 26, 2026).', membership: member(41, 'Maria', 'active').membership } };
      }
      return undefined;
    });
    const { router } = renderRoutes({ '/dpc-providers/members': <MembersPage /> }, '/dpc-providers/members');
    expect((await screen.findAllByRole('link', { name: 'Maria Garcia' })).length).toBeGreaterThan(0);
    expect(screen.getByRole('tab', { name: /New/ }).textContent).toContain('25');
    expect(screen.getByRole('tab', { name: /Active/ }).textContent).toContain('4');
    expect(calls[0]!.url.searchParams.get('status')).toBe('pending');

    fireEvent.click(screen.getByRole('tab', { name: /Past/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=past'));
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('status')).toBe('past'));
    fireEvent.click(screen.getByRole('tab', { name: /New/ }));
    fireEvent.change(screen.getByLabelText('Location'), { target: { value: '3' } });
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('location')).toBe('3'));
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('page')).toBe('2'));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'garc' } });
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('q')).toBe('garc'));
    // A new search starts at page 1.
    expect(calls.at(-1)!.url.searchParams.get('page')).toBe('1');

    fireEvent.click((await screen.findAllByRole('button', { name: 'Activate Maria Garcia' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Activate Maria Garcia' });
    const day = within(dialog).getByLabelText('Date of the first visit') as HTMLInputElement;
    expect(day.value).toBe(todayForForm());
    expect(day.max).toBe(todayForForm());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate membership' }));
    expect(await screen.findByText('Maria Garcia is now an active member (first visit Nov 26, 2026).')).toBeTruthy();
    const posted = calls.find((call) => call.url.pathname.endsWith('/activate'))!;
    expect(JSON.parse(String(posted.init!.body))).toEqual({ firstVisit: todayForForm() });
  });

  it("asks for a decline's reason and shows the server's refusal in the dialog", async () => {
    mockFetch((url) => {
      if (url.pathname === '/dpcproviders/members') return { body: page([member(41, 'Maria')]) };
      if (url.pathname === '/dpcproviders/members/41/decline') {
        return { status: 409, body: { message: 'Maria Garcia moved to another clinic on Nov 26, 2026.', code: 'membership_state' } };
      }
      return undefined;
    });
    renderRoutes({ '/dpc-providers/members': <MembersPage /> }, '/dpc-providers/members');
    fireEvent.click((await screen.findAllByRole('button', { name: 'Decline Maria Garcia' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Decline Maria Garcia' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline enrolment' }));
    expect(await within(dialog).findByText('Please give a reason: the member will read it')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason (the member reads it)'), { target: { value: 'We are full' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline enrolment' }));
    expect(await within(dialog).findByText('Maria Garcia moved to another clinic on Nov 26, 2026.')).toBeTruthy();
  });

  it('says when a tab is empty', async () => {
    mockFetch((url) => (url.pathname === '/dpcproviders/members' ? { body: page([]) } : undefined));
    renderRoutes({ '/dpc-providers/members': <MembersPage /> }, '/dpc-providers/members');
    expect(await screen.findByText(/No new members/)).toBeTruthy();
  });
});

describe("a member's detail", () => {
  const detail: PanelMemberDetail = {
    member: member(41, 'Maria'),
    membership: { ...member(41, 'Maria', 'active').membership, location: { id: 1, name: 'LoDo', address: '1600 Wynkoop St, Denver, CO 80202' } },
    family: [{ id: 42, firstName: 'Leo', lastName: 'Garcia', relation: 'Dependent', status: 'pending', location: { id: 1, name: 'LoDo' } }],
    history: [
      { at: '2026-11-20T10:00:00Z', kind: 'enrolled', by: { actor: 'member', name: 'Maria Garcia' }, location: { id: 1, name: 'LoDo' }, date: null, reason: null },
      { at: '2026-11-22T15:30:00Z', kind: 'activated', by: { actor: 'provider', name: 'Dana Demo' }, location: { id: 1, name: 'LoDo' }, date: '2026-11-22', reason: null },
    ],
  };

  it('shows the facts, the family at the clinic, the history, and End for an active member', async () => {
    mockFetch((url) => (url.pathname === '/dpcproviders/members/41' ? { body: detail } : undefined));
    renderRoutes({ '/dpc-providers/members/:id': <MemberDetailPage memberId={41} /> }, '/dpc-providers/members/41');
    expect(await screen.findByRole('heading', { name: 'Maria Garcia', level: 1 })).toBeTruthy();
    expect(screen.getByText('Cascade Gold PPO')).toBeTruthy();
    // The stored E.164 number is shown as every other screen shows a phone, and dialled as stored.
    expect(screen.getByRole('link', { name: '303 555 0141' }).getAttribute('href')).toBe('tel:+13035550141');
    expect(screen.getByRole('link', { name: 'Leo Garcia' }).getAttribute('href')).toBe('/dpc-providers/members/42');
    expect(screen.getByText('Activated: first visit on Nov 22, 2026')).toBeTruthy();
    expect(screen.getByText(/Nov 22, 2026, 15:30 UTC · by Dana Demo \(your clinic\)/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'End membership' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Activate' })).toBeNull();
  });

  it("says so when the member is not the organisation's", async () => {
    mockFetch(() => ({ status: 404, body: { message: 'This member is not enrolled with your organisation', code: 'not_found' } }));
    renderRoutes({ '/dpc-providers/members/:id': <MemberDetailPage memberId={7} /> }, '/dpc-providers/members/7');
    expect(await screen.findByText('This member is not enrolled with your organisation.')).toBeTruthy();
  });
});

describe('panel wording', () => {
  it('names dates and events as the clinic reads them', () => {
    expect(membershipDates(member(1, 'A').membership)).toBe('Enrolled Nov 20, 2026');
    expect(membershipDates(member(1, 'A', 'active').membership)).toBe('Active since Nov 22, 2026');
    expect(historyText({ at: '', kind: 'moved_away', by: { actor: 'member', name: 'A' }, location: { id: 3, name: 'Highlands' }, date: null, reason: null })).toBe('Moved to another clinic (was at Highlands)');
    // Late in the evening west of UTC the local day is the earlier; east of it, the server's day caps it.
    expect(todayForForm(new Date('2026-11-26T23:30:00Z'))).toBe('2026-11-26');
  });
});
