import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { bodyOf, mockFetch, renderWithProviders, signIn } from '@/test/render';
import type { Solution } from '@/api/solutions/types';
import type { RateCalculation } from '@/api/providers/types';
import { ProviderSolutionsPage } from './provider-solutions-page';
import { ProviderSolutionDetails, STOP_CONFIRM_TITLE } from './provider-solution-details';
import { CHANGE_RATE_TEXTS } from './change-rate-dialog';
import { ProviderRatesPage } from './provider-rates-page';
import { ParticipationReviewPage, REVIEW_TEXTS } from './participation-review-page';

/** A provider's token: the claims say role provider (docs/provider-contract.md). */
function providerToken(): string {
  const claims = btoa(JSON.stringify({ sub: '90', role: 'provider', org: 3 })).replace(/=+$/, '');
  return `header.${claims}.signature`;
}

function solutionFixture(overrides: Partial<Solution> = {}): Solution {
  return {
    id: 4,
    name: 'Cloverleaf Network',
    logo: '',
    category: 'Virtual Care',
    favorite: false,
    contract: '/dpcproviders/market/solution/4/contract.pdf',
    contractVersion: 'abc123',
    contracted: false,
    details: { description: 'Video visits for members.', definition: 'A virtual network', website: 'clover.example' },
    facilitator: { primaryContact: { firstName: 'Fay', lastName: 'Cilitator', email: 'fay@clover.example' }, address1: '1 Main St' },
    participation: null,
    rate: null,
    rates: [
      { _id: 'r1', group: 'Group A', baseRate: '75.00' },
      { _id: 'r2', group: 'Group B', baseRate: '100.00' },
    ],
    fees: [
      { entity: 'TPA', type: 'percent', amount: '1.50' },
      { entity: 'Platform', type: 'percent', amount: '3.00' },
      { entity: 'Solution facilitator', type: 'flat', amount: '5.00' },
    ],
    ...overrides,
  };
}

const calculation: RateCalculation = {
  solution: 4,
  rate: 'r1',
  monthly: {
    baseRate: '75.00',
    fees: '8.38',
    total: '66.62',
    breakdown: [
      { entity: 'TPA', type: 'percent', value: '1.50', amount: '1.13' },
      { entity: 'Platform', type: 'percent', value: '3.00', amount: '2.25' },
      { entity: 'Solution facilitator', type: 'flat', value: '5.00', amount: '5.00' },
    ],
  },
  yearly: {
    baseRate: '900.00',
    fees: '100.56',
    total: '799.44',
    breakdown: [
      { entity: 'TPA', type: 'percent', value: '1.50', amount: '13.56' },
      { entity: 'Platform', type: 'percent', value: '3.00', amount: '27.00' },
      { entity: 'Solution facilitator', type: 'flat', value: '5.00', amount: '60.00' },
    ],
  },
};

describe('provider solutions page', () => {
  it('shows both empty carousels with the spec\'s exact texts, and the marketplace', async () => {
    signIn(providerToken());
    mockFetch((url) =>
      url.pathname === '/member/app/solutions'
        ? { body: { solutions: [], favorites: [], marketplace: [{ id: 4, name: 'Cloverleaf Network', category: 'Virtual Care', logo: null, favorite: false, contracted: false, status: 'notContracted' }] } }
        : undefined,
    );
    renderWithProviders(<ProviderSolutionsPage />);
    expect(await screen.findByText('You are not paricipating in any solution!')).toBeTruthy();
    expect(screen.getByText('There are no solutions marked as favorites!')).toBeTruthy();
    const card = screen.getByRole('article', { name: 'Cloverleaf Network' });
    expect(within(card).getByText('Not contracted')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Cloverleaf Network' }).getAttribute('href')).toBe('/dpc-providers/solutions/details/4');
  });

  it('changes the heart only after the server accepts the favourite', async () => {
    signIn(providerToken());
    let accepted = false;
    const card = { id: 4, name: 'Cloverleaf Network', category: 'Virtual Care', logo: null, favorite: false, contracted: false, status: 'active' };
    const { calls } = mockFetch((url) => {
      if (url.pathname === '/member/app/solutions') {
        const shown = { ...card, favorite: accepted };
        return { body: { solutions: [shown], favorites: accepted ? [shown] : [], marketplace: [shown] } };
      }
      if (url.pathname === '/dpcproviders/market/favorite') {
        accepted = true;
        return { body: { message: 'ok' } };
      }
      return undefined;
    });
    renderWithProviders(<ProviderSolutionsPage />);
    const [heart] = await screen.findAllByRole('button', { name: 'Add Cloverleaf Network to favorites' });
    fireEvent.click(heart!);
    await waitFor(() => expect(screen.queryByText('There are no solutions marked as favorites!')).toBeNull());
    expect(bodyOf(calls.find((call) => call.url.pathname === '/dpcproviders/market/favorite')!)).toEqual({ entity: 'solution', solution: 4, favorite: true });
    expect(screen.getAllByRole('button', { name: 'Remove Cloverleaf Network from favorites' }).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Active').length).toBeGreaterThan(0);
  });
});

const providerMe = { id: 90, email: 'owner@clinic.example', firstName: 'Pat', lastName: 'Lee', organisation: { id: 3, name: 'Front Range' } };

describe('provider solution detail', () => {
  function renderDetail(solution: Solution, extra: (url: URL, init: RequestInit | undefined) => { status?: number; body: unknown } | undefined = () => undefined) {
    signIn(providerToken());
    const state = { solution };
    const fetch = mockFetch((url, init) => {
      const answer = extra(url, init);
      if (answer) return answer;
      if (url.pathname === '/dpcproviders/market/solution/4') return { body: state.solution };
      if (url.pathname === '/dpcproviders/rate/calculate') return { body: calculation };
      if (url.pathname === '/dpcproviders/me') return { body: providerMe };
      return undefined;
    });
    renderWithProviders(<ProviderSolutionDetails solutionId={4} />);
    return { ...fetch, state };
  }

  it('shows the sections and Rates & Fees with Participate when not contracted', async () => {
    renderDetail(solutionFixture());
    expect(await screen.findByRole('heading', { name: 'Details' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Solution Facilitator' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Enrollment/Participation' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Rates & Fees' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Participation Details' })).toBeNull();
    expect(screen.getByText('$75.00')).toBeTruthy();
    expect(screen.getByText('1.50%')).toBeTruthy();
    expect(screen.getByText('$5.00')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Participate' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows a disabled Pending Approval and Participation Details while pending', async () => {
    renderDetail(
      solutionFixture({
        contracted: true,
        participation: { id: 8, status: 'pending', requestedAt: '2026-11-24T08:00:00Z', decidedAt: null },
        rate: { _id: 'r1', amount: '75.00', rateGroup: 'Group A', totalNet: '66.62', structure: 'PMPM', frequency: 'monthly' },
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Participation Details' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Rates & Fees' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Pending Approval' }).hasAttribute('disabled')).toBe(true);
    expect(await screen.findByText('$799.44')).toBeTruthy();
    expect(screen.getAllByText('11/24/2026').length).toBeGreaterThan(0);
  });

  it('asks before Stop Participating, then posts contracted false', async () => {
    const { calls, state } = renderDetail(
      solutionFixture({
        contracted: true,
        participation: { id: 8, status: 'active', requestedAt: '2026-11-24T08:00:00Z', decidedAt: '2026-11-24T09:00:00Z' },
        rate: { _id: 'r1', amount: '75.00', rateGroup: 'Group A', totalNet: '66.62' },
      }),
      (url) => {
        if (url.pathname === '/dpcproviders/solutions/4') {
          state.solution = solutionFixture({ participation: { id: 8, status: 'stopped', requestedAt: '2026-11-24T08:00:00Z', stoppedAt: '2026-11-25T10:00:00Z' } });
          return { body: { message: 'Stopped' } };
        }
        return undefined;
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Stop Participating' }));
    const confirm = await screen.findByRole('dialog', { name: STOP_CONFIRM_TITLE });
    expect(calls.some((call) => call.url.pathname === '/dpcproviders/solutions/4')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Stop Participating' }));
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/dpcproviders/solutions/4')).toBe(true));
    expect(bodyOf(calls.find((call) => call.url.pathname === '/dpcproviders/solutions/4')!)).toEqual({ contracted: false });
    expect(await screen.findByRole('button', { name: 'Participate' })).toBeTruthy();
    expect(screen.getAllByText('Inactive').length).toBeGreaterThan(0);
    expect(screen.getByText('Stopped')).toBeTruthy();
    expect(screen.getByText('11/25/2026')).toBeTruthy();
  });

  it('enables Next only once a rate is chosen and Participate only once the contract is agreed, then shows Pending Approval', async () => {
    const { calls } = renderDetail(solutionFixture(), (url) =>
      url.pathname === '/dpcproviders/solutions' ? { status: 201, body: { message: 'Requested', participation: { id: 9, status: 'pending' } } } : undefined,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Participate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Participate in Cloverleaf Network' });
    expect(within(dialog).getByText('Please select rate first')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(within(dialog).getByRole('radio', { name: /Group A/ }));
    expect(within(dialog).queryByText('Please select rate first')).toBeNull();
    expect(await within(dialog).findByText('$66.62')).toBeTruthy();
    expect(within(dialog).getByText('TPA (1.50%)')).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/dpcproviders/rate/calculate')!)).toEqual({ solution: 4, rate: 'r1' });
    expect(within(dialog).getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(false);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByRole('document', { name: 'Contract for Cloverleaf Network' })).toBeTruthy();
    const newTab = within(dialog).getByRole('link', { name: 'Open the contract in a new tab' });
    expect(newTab.getAttribute('href')).toBe('/dpcproviders/market/solution/4/contract.pdf');
    expect(newTab.getAttribute('target')).toBe('_blank');
    // The test server has no PDF: the viewer says so and points at the link.
    expect(await within(dialog).findByText(/The contract could not be shown here/)).toBeTruthy();
    const participate = within(dialog).getByRole('button', { name: 'Participate' });
    expect(participate.hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox'));
    expect(participate.hasAttribute('disabled')).toBe(false);
    fireEvent.click(participate);

    expect(await screen.findByRole('dialog', { name: 'Pending Approval' })).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/dpcproviders/solutions')!)).toEqual({ solutionId: 4, rate: 'r1', contracted: true, contractVersion: 'abc123', contactEmail: 'owner@clinic.example' });
  });

  it('asks for the e-mail the decision goes to with the spec\'s messages, filled with the account\'s, and sends it', async () => {
    const { calls } = renderDetail(solutionFixture(), (url) =>
      url.pathname === '/dpcproviders/solutions' ? { status: 201, body: { message: 'Requested', participation: { id: 9, status: 'pending' } } } : undefined,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Participate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Participate in Cloverleaf Network' });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Group A/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    const email = within(dialog).getByRole('textbox', { name: "E-mail for the facilitator's decision" }) as HTMLInputElement;
    await waitFor(() => expect(email.value).toBe('owner@clinic.example'));
    fireEvent.click(within(dialog).getByRole('checkbox'));

    fireEvent.change(email, { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Participate' }));
    expect(within(dialog).getByText('E-mail is required')).toBeTruthy();
    fireEvent.change(email, { target: { value: 'billing@clinic' } });
    fireEvent.blur(email);
    expect(within(dialog).getByText('E-mail must be valid')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Participate' }));
    expect(calls.some((call) => call.url.pathname === '/dpcproviders/solutions')).toBe(false);

    fireEvent.change(email, { target: { value: ' Billing@Clinic.Example ' } });
    fireEvent.blur(email);
    expect(email.value).toBe('billing@clinic.example');
    expect(within(dialog).queryByText('E-mail must be valid')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Participate' }));
    const pending = await screen.findByRole('dialog', { name: 'Pending Approval' });
    expect(pending.textContent).toContain('We will email their decision to billing@clinic.example.');
    expect(bodyOf(calls.find((call) => call.url.pathname === '/dpcproviders/solutions')!)).toMatchObject({ contactEmail: 'billing@clinic.example' });
  });

  it('resets the dialog to step 1 and shows the server\'s message in the error modal, whose Retry sends the request again', async () => {
    let attempts = 0;
    const { calls } = renderDetail(solutionFixture(), (url) => {
      if (url.pathname !== '/dpcproviders/solutions') return undefined;
      attempts += 1;
      return attempts === 1
        ? { status: 503, body: { message: 'The service is busy: please try again in a minute.', code: 'unavailable' } }
        : { status: 201, body: { message: 'Requested', participation: { id: 9, status: 'pending' } } };
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Participate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Participate in Cloverleaf Network' });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Group B/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Participate' }));

    const error = await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' });
    expect(within(error).getByText('The service is busy: please try again in a minute.')).toBeTruthy();
    // The participation dialog is back at step 1 with nothing chosen.
    expect(within(dialog).getByText('Please select rate first')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
    expect((within(dialog).getByRole('radio', { name: /Group B/ }) as HTMLInputElement).checked).toBe(false);

    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('dialog', { name: 'Pending Approval' })).toBeTruthy();
    const posts = calls.filter((call) => call.url.pathname === '/dpcproviders/solutions');
    expect(posts.map(bodyOf)).toEqual([
      { solutionId: 4, rate: 'r2', contracted: true, contractVersion: 'abc123', contactEmail: 'owner@clinic.example' },
      { solutionId: 4, rate: 'r2', contracted: true, contractVersion: 'abc123', contactEmail: 'owner@clinic.example' },
    ]);
  });

  it('does not resend a request the contract changed under: Retry starts the steps over with the reloaded contract', async () => {
    const { calls, state } = renderDetail(solutionFixture(), (url) => {
      if (url.pathname !== '/dpcproviders/solutions') return undefined;
      state.solution = solutionFixture({ contractVersion: 'def456' });
      return { status: 409, body: { message: 'The contract changed since you opened it: please read it again.', code: 'contract_changed' } };
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Participate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Participate in Cloverleaf Network' });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Group A/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Participate' }));
    const error = await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' });
    expect(within(error).getByText('The contract changed since you opened it: please read it again.')).toBeTruthy();
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Oops, something went wrong. Please try again.' })).toBeNull());
    expect(calls.filter((call) => call.url.pathname === '/dpcproviders/solutions')).toHaveLength(1);
    // Through the steps again: the request carries the reloaded contract's version.
    await waitFor(() => expect(calls.filter((call) => call.url.pathname === '/dpcproviders/market/solution/4').length).toBe(2));
    fireEvent.click(within(dialog).getByRole('radio', { name: /Group A/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Participate' }));
    await waitFor(() => expect(calls.filter((call) => call.url.pathname === '/dpcproviders/solutions')).toHaveLength(2));
    expect(bodyOf(calls.filter((call) => call.url.pathname === '/dpcproviders/solutions')[1]!)).toMatchObject({ contractVersion: 'def456' });
  });
});

describe('change rate', () => {
  const contracted = (status: 'pending' | 'active', overrides: Partial<Solution> = {}) =>
    solutionFixture({
      contracted: true,
      participation: { id: 8, status, requestedAt: '2026-11-24T08:00:00Z', decidedAt: status === 'active' ? '2026-11-24T09:00:00Z' : null },
      rate: { _id: 'r1', amount: '75.00', rateGroup: 'Group A', totalNet: '66.62', structure: 'PMPM', frequency: 'monthly' },
      ...overrides,
    });

  function renderDetail(solution: Solution, change: (body: unknown, state: { solution: Solution }) => { status?: number; body: unknown } = () => ({ body: { message: 'ok' } })) {
    signIn(providerToken());
    const state = { solution };
    const fetch = mockFetch((url, init) => {
      if (url.pathname === '/dpcproviders/market/solution/4') return { body: state.solution };
      if (url.pathname === '/dpcproviders/rate/calculate') return { body: calculation };
      if (url.pathname === '/dpcproviders/solutions/4') return change(JSON.parse(String(init?.body)), state);
      return undefined;
    });
    renderWithProviders(<ProviderSolutionDetails solutionId={4} />);
    return { ...fetch, state };
  }

  const changePosts = <T extends { url: URL }>(calls: T[]): T[] => calls.filter((call) => call.url.pathname === '/dpcproviders/solutions/4');

  it('offers Change Rate only while contracted (pending or active)', async () => {
    renderDetail(solutionFixture());
    expect(await screen.findByRole('button', { name: 'Participate' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: CHANGE_RATE_TEXTS.button })).toBeNull();
  });

  it('does not offer Change Rate to an inactive (stopped) participation', async () => {
    renderDetail(solutionFixture({ participation: { id: 8, status: 'stopped', requestedAt: '2026-11-24T08:00:00Z', stoppedAt: '2026-11-25T10:00:00Z' } }));
    expect(await screen.findByRole('button', { name: 'Participate' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: CHANGE_RATE_TEXTS.button })).toBeNull();
  });

  it.each(['pending', 'active'] as const)('shows Change Rate next to the state button while %s', async (status) => {
    renderDetail(contracted(status));
    const change = await screen.findByRole('button', { name: CHANGE_RATE_TEXTS.button });
    expect(change.hasAttribute('disabled')).toBe(false);
    expect(screen.getByRole('button', { name: status === 'active' ? 'Stop Participating' : 'Pending Approval' })).toBeTruthy();
  });

  it('preselects and marks the current rate, and enables the confirm button only for another rate', async () => {
    const { calls } = renderDetail(contracted('active'));
    fireEvent.click(await screen.findByRole('button', { name: CHANGE_RATE_TEXTS.button }));
    const dialog = await screen.findByRole('dialog', { name: CHANGE_RATE_TEXTS.title('Cloverleaf Network') });
    const current = within(dialog).getByRole('radio', { name: /Group A/ }) as HTMLInputElement;
    expect(current.checked).toBe(true);
    expect(within(current.closest('li')!).getByText('current')).toBeTruthy();
    expect(within(within(dialog).getByRole('radio', { name: /Group B/ }).closest('li')!).queryByText('current')).toBeNull();
    expect(within(dialog).queryByText('Please select rate first')).toBeNull();
    // The current rate's calculation is shown.
    expect(await within(dialog).findByText('$66.62')).toBeTruthy();
    expect(within(dialog).getByText(CHANGE_RATE_TEXTS.activeNote)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: CHANGE_RATE_TEXTS.confirm });
    expect(confirm.hasAttribute('disabled')).toBe(true);

    fireEvent.click(within(dialog).getByRole('radio', { name: /Group B/ }));
    expect(confirm.hasAttribute('disabled')).toBe(false);
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/dpcproviders/rate/calculate' && (bodyOf(call) as { rate: string }).rate === 'r2')).toBe(true));
    // Back to the current rate: nothing to change.
    fireEvent.click(current);
    expect(confirm.hasAttribute('disabled')).toBe(true);
    expect(changePosts(calls)).toHaveLength(0);
  });

  it('says a pending request is asked again with the new rate', async () => {
    renderDetail(contracted('pending'));
    fireEvent.click(await screen.findByRole('button', { name: CHANGE_RATE_TEXTS.button }));
    const dialog = await screen.findByRole('dialog', { name: CHANGE_RATE_TEXTS.title('Cloverleaf Network') });
    expect(within(dialog).getByText(CHANGE_RATE_TEXTS.pendingNote)).toBeTruthy();
    expect(within(dialog).queryByText(CHANGE_RATE_TEXTS.activeNote)).toBeNull();
  });

  it('posts exactly {rate}, shows the server\'s message and reloads the solution (Pending Approval)', async () => {
    const message = 'Your new rate (Group B) was sent to the solution facilitator for approval.';
    const { calls } = renderDetail(contracted('active'), (_body, state) => {
      state.solution = contracted('pending', { rate: { _id: 'r2', amount: '100.00', rateGroup: 'Group B', structure: 'PMPM', frequency: 'monthly' } });
      return { body: { message, participation: { id: 8, status: 'pending' } } };
    });
    fireEvent.click(await screen.findByRole('button', { name: CHANGE_RATE_TEXTS.button }));
    const dialog = await screen.findByRole('dialog', { name: CHANGE_RATE_TEXTS.title('Cloverleaf Network') });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Group B/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: CHANGE_RATE_TEXTS.confirm }));

    const done = await screen.findByRole('dialog', { name: CHANGE_RATE_TEXTS.doneTitle });
    expect(within(done).getByText(message)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: CHANGE_RATE_TEXTS.title('Cloverleaf Network') })).toBeNull();
    expect(changePosts(calls).map(bodyOf)).toEqual([{ rate: 'r2' }]);
    // The solution is loaded again: the chip and the button say Pending Approval, with the new rate.
    await waitFor(() => expect(calls.filter((call) => call.url.pathname === '/dpcproviders/market/solution/4').length).toBe(2));
    expect(await screen.findByRole('button', { name: 'Pending Approval' })).toBeTruthy();
    expect(screen.getAllByText('Pending Approval').length).toBeGreaterThan(1);
    expect(screen.getByText('Group B')).toBeTruthy();
    fireEvent.click(within(done).getByRole('button', { name: 'Okay' }));
    expect(screen.queryByRole('dialog', { name: CHANGE_RATE_TEXTS.doneTitle })).toBeNull();
  });

  it('shows a 400 in the error modal with the server\'s message, without Retry', async () => {
    const message = 'Nothing to change: send a different rate, or contracted false to stop participating.';
    const { calls } = renderDetail(contracted('active'), () => ({ status: 400, body: { message, code: 'nothing_to_change' } }));
    fireEvent.click(await screen.findByRole('button', { name: CHANGE_RATE_TEXTS.button }));
    const dialog = await screen.findByRole('dialog', { name: CHANGE_RATE_TEXTS.title('Cloverleaf Network') });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Group B/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: CHANGE_RATE_TEXTS.confirm }));

    const error = await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' });
    expect(within(error).getByRole('alert').textContent).toBe(message);
    expect(within(error).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.queryByRole('dialog', { name: CHANGE_RATE_TEXTS.doneTitle })).toBeNull();
    fireEvent.click(within(error).getByRole('button', { name: 'Okay' }));
    expect(screen.queryByRole('dialog', { name: 'Oops, something went wrong. Please try again.' })).toBeNull();
    // The change dialog is still there with the chosen rate, and the participation did not change.
    expect((within(dialog).getByRole('radio', { name: /Group B/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Stop Participating' })).toBeTruthy();
    expect(changePosts(calls)).toHaveLength(1);
  });

  it('offers Retry when the server could not answer (503), sending the same body again', async () => {
    let attempts = 0;
    const { calls } = renderDetail(contracted('pending'), () => {
      attempts += 1;
      return attempts === 1 ? { status: 503, body: { message: 'The service is busy: please try again in a minute.', code: 'unavailable' } } : { body: { message: 'Sent again.' } };
    });
    fireEvent.click(await screen.findByRole('button', { name: CHANGE_RATE_TEXTS.button }));
    const dialog = await screen.findByRole('dialog', { name: CHANGE_RATE_TEXTS.title('Cloverleaf Network') });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Group B/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: CHANGE_RATE_TEXTS.confirm }));
    const error = await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' });
    expect(within(error).getByText('The service is busy: please try again in a minute.')).toBeTruthy();
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Sent again.')).toBeTruthy();
    expect(changePosts(calls).map(bodyOf)).toEqual([{ rate: 'r2' }, { rate: 'r2' }]);
  });
});

describe('rates page', () => {
  it('lists participations with their figures, or says there are none', async () => {
    signIn(providerToken());
    mockFetch((url) =>
      url.pathname === '/dpcproviders/participations'
        ? {
            body: [
              {
                id: 9,
                status: 'active',
                solution: { id: 4, name: 'Cloverleaf Network' },
                rate: { _id: 'r1', group: 'Group A', baseRate: '75.00' },
                monthly: calculation.monthly,
                yearly: calculation.yearly,
                requestedAt: '2026-11-20T10:00:00Z',
                decidedAt: '2026-11-21T10:00:00Z',
              },
            ],
          }
        : undefined,
    );
    renderWithProviders(<ProviderRatesPage />);
    expect((await screen.findAllByText('$799.44')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('$8.38').length).toBeGreaterThan(0);
    expect(screen.getAllByText('11/21/2026').length).toBeGreaterThan(0);
  });

  it('shows the empty state', async () => {
    signIn(providerToken());
    mockFetch((url) => (url.pathname === '/dpcproviders/participations' ? { body: [] } : undefined));
    renderWithProviders(<ProviderRatesPage />);
    expect(await screen.findByText(/You have not asked to participate in any solution yet\./)).toBeTruthy();
  });
});

describe('facilitator review page', () => {
  const review = {
    status: 'pending',
    solution: { id: 4, name: 'Cloverleaf Network' },
    organisation: { id: 3, name: 'Mile High Health' },
    requestedBy: { firstName: 'Pat', lastName: 'Provider', email: 'pat@milehigh.example' },
    contactEmail: 'billing@milehigh.example',
    rate: { _id: 'r1', group: 'Group A', baseRate: '75.00' },
    monthly: calculation.monthly,
    yearly: calculation.yearly,
    requestedAt: '2026-11-24T08:00:00Z',
  };

  it('shows the request, approves it, and shows the outcome', async () => {
    const { calls } = mockFetch((url) => {
      if (url.pathname !== '/dpcproviders/participations/review') return undefined;
      return calls.length > 1 ? { body: { status: 'active', message: 'Mile High Health now participates in Cloverleaf Network.' } } : { body: review };
    });
    renderWithProviders(<ParticipationReviewPage />, { route: '/dpc-providers/participations/review?token=tok123' });
    expect(await screen.findByText('Mile High Health asks to participate in Cloverleaf Network.')).toBeTruthy();
    expect(calls[0]!.url.searchParams.get('token')).toBe('tok123');
    expect(screen.getByRole('link', { name: 'billing@milehigh.example' }).getAttribute('href')).toBe('mailto:billing@milehigh.example');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Mile High Health now participates in Cloverleaf Network.')).toBeTruthy();
    expect(bodyOf(calls[1]!)).toEqual({ token: 'tok123', decision: 'approve' });
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('says clearly when the link is expired or used (410)', async () => {
    mockFetch((url) => (url.pathname === '/dpcproviders/participations/review' ? { status: 410, body: { message: 'gone', code: 'review_link_expired' } } : undefined));
    renderWithProviders(<ParticipationReviewPage />, { route: '/dpc-providers/participations/review?token=old' });
    expect(await screen.findByText(REVIEW_TEXTS.expired)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});
