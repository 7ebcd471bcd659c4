import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Member } from '@/lib/member';
import { MemberStateContext, memberStateFrom } from '@/lib/member-state';
import { hardNavigation } from '@/lib/hard-navigation';
import { addFamilyChoice, selectedDependent, selectedProvider } from '@/lib/storage';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderRoutes, signIn } from '@/test/render';
import type { ClinicTarget } from '../utils/select-provider';
import { useLazyProviderSelection } from './use-lazy-provider-selection';
import { useProviderSelection, type ProviderSelection } from './use-provider-selection';

const highlands: ClinicTarget = { entity: 'location', providerId: 1, locationId: 3, name: 'Front Range Direct Primary Care', locationName: 'Highlands' };

function SelectButton({ selection, target }: { selection: ProviderSelection; target: ClinicTarget }) {
  return (
    <>
      <button type="button" onClick={() => selection.select(target)} disabled={selection.busy}>
        Select
      </button>
      {selection.dialogs}
    </>
  );
}

function Harness({ target = highlands }: { target?: ClinicTarget }) {
  return <SelectButton selection={useProviderSelection({ employerChosen: true })} target={target} />;
}

/** The marketplace's way: the same flow, its code fetched on the first Select. */
function LazyHarness({ target = highlands }: { target?: ClinicTarget }) {
  return <SelectButton selection={useLazyProviderSelection()} target={target} />;
}

type Answer = { status?: number; body: unknown };

/** Renders the flow for `member` (null: signed out) with the server answering from `answers`. */
function renderFlow(member: Member | null, answers: Record<string, Answer> = {}, { dependentId = null, target, lazy = false }: { dependentId?: number | null; target?: ClinicTarget; lazy?: boolean } = {}) {
  if (member) signIn();
  if (dependentId !== null) selectedDependent.set(dependentId);
  const fetched = mockFetch((url, init) => answers[`${init?.method ?? 'GET'} ${url.pathname}`]);
  const state = memberStateFrom(member, dependentId);
  const rendered = renderRoutes(
    {
      '/marketplace': (
        <MemberStateContext value={state}>
          {lazy ? <LazyHarness target={target} /> : <Harness target={target} />}
        </MemberStateContext>
      ),
      '/register': <p>register page</p>,
      '/membership': <p>membership page</p>,
      '/confirm-plan-information': <p>confirm plan page</p>,
      '/account/details': <p>account page</p>,
      '/add-family-member': <p>add family page</p>,
    },
    '/marketplace',
  );
  return { ...fetched, ...rendered };
}

const enrolled = (overrides: Record<string, unknown> = {}) => ({
  body: { message: 'You have been enrolled with Front Range Direct Primary Care', changed: false, providerId: 1, locationId: 3, nextStep: 'complete', setup: 'complete', location: { id: 3, name: 'Front Range Direct Primary Care' }, ...overrides },
});
const noRedirect = { body: { postMemberEnrollment: null } };
const family = [{ id: 22, firstName: 'John', lastName: 'Doe', subscriberRelation: 'Spouse' as const, nextStep: 'selectDPC' as const, location: null, subscription: { status: null } }];

afterEach(() => vi.restoreAllMocks());

describe('selecting a clinic', () => {
  it('signed out: stores the clinic as the selected provider and goes to /register', async () => {
    const { router, calls } = renderFlow(null);
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'));
    expect(selectedProvider.get()).toEqual({ providerId: 1, locationId: 3, name: 'Front Range Direct Primary Care', locationName: 'Highlands' });
    expect(calls).toHaveLength(0);
  });

  it('loaded on the first Select (the marketplace): that Select runs once the code is here, signed out or enrolling', async () => {
    const signedOut = renderFlow(null, {}, { lazy: true });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    await waitFor(() => expect(signedOut.router.state.location.pathname).toBe('/register'));
    expect(selectedProvider.get()).toEqual({ providerId: 1, locationId: 3, name: 'Front Range Direct Primary Care', locationName: 'Highlands' });
    signedOut.unmount();

    const { calls } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, providerId: null, locationId: null, location: null }), { 'POST /member/app/set/provider': enrolled(), 'GET /member/app/provider/1/postenrollment': noRedirect }, { lazy: true });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    await screen.findByRole('dialog', { name: "Great! You're all set." });
    expect(calls.filter((call) => call.url.pathname === '/member/app/set/provider')).toHaveLength(1);
  });

  it('refuses a card that is not a clinic location', async () => {
    renderFlow(memberFixture(), {}, { target: { ...highlands, entity: 'provider' } });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    expect(await screen.findByRole('dialog', { name: 'Oops. Seems like you selected a non-provider card.' })).toBeTruthy();
  });

  it('an active membership gets the cannot-enrol dialog without a call', async () => {
    const { calls } = renderFlow(memberFixture({ subscription: { status: 'active', expire: '2027-01-01' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: 'You have an active membership with Front Range Direct Primary Care' });
    expect(dialog.textContent).toContain('Please contact us through our support email for further assistance.');
    expect(calls).toHaveLength(0);
  });

  it('a pending membership is changed only after the confirmation, with change: true', async () => {
    const { calls, router } = renderFlow(memberFixture({ subscription: { status: 'pending', expire: '2027-01-01' } }), {
      'POST /member/app/set/provider': enrolled({ changed: true, message: 'You now have a pending membership with Front Range Direct Primary Care' }),
      'GET /member/app/provider/1/postenrollment': noRedirect,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const confirm = await screen.findByRole('dialog', { name: 'Change provider?' });
    expect(confirm.textContent).toContain('You have a pending membership with Front Range Direct Primary Care');
    expect(calls).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Yes, change provider' }));
    const changed = await screen.findByRole('dialog', { name: 'Provider changed' });
    expect(within(changed).getByText('You now have a pending membership with Front Range Direct Primary Care')).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/set/provider')!)).toEqual({ providerId: 1, locationId: 3, change: true });
    expect(calls.find((call) => call.url.pathname === '/member/app/provider/1/postenrollment')!.url.searchParams.get('locationId')).toBe('3');
    fireEvent.click(within(changed).getByRole('button', { name: 'View my membership' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/membership'));
  });

  it('No, go back keeps the pending provider', async () => {
    const { calls } = renderFlow(memberFixture({ subscription: { status: 'pending', expire: '2027-01-01' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Change provider?' })).getByRole('button', { name: 'No, go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toHaveLength(0);
  });

  it('sets the provider, then the all-set dialog leads to the membership card', async () => {
    const { calls, router } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, providerId: null, locationId: null, location: null }), {
      'POST /member/app/set/provider': enrolled(),
      'GET /member/app/provider/1/postenrollment': noRedirect,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: "Great! You're all set." });
    expect(dialog.textContent).toContain('You have been enrolled with Front Range Direct Primary Care.');
    expect(bodyOf(calls[0]!)).toEqual({ providerId: 1, locationId: 3 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'View my membership' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/membership'));
  });

  it('setup incomplete and nextStep confirmPlan: /confirm-plan-information, reloaded', async () => {
    const assign = vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    const { calls } = renderFlow(memberFixture({ nextStep: 'selectDPC', setup: 'incomplete', subscription: null, location: null }), {
      'POST /member/app/set/provider': enrolled({ nextStep: 'confirmPlan', setup: 'incomplete' }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/confirm-plan-information'));
    expect(calls.some((call) => call.url.pathname.endsWith('/postenrollment'))).toBe(false);
  });

  it('nextStep confirmPlan with setup complete: /confirm-plan-information without a reload', async () => {
    const assign = vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    const { router } = renderFlow(memberFixture({ nextStep: 'selectDPC', setup: 'complete', subscription: null, location: null }), {
      'POST /member/app/set/provider': enrolled({ nextStep: 'confirmPlan', setup: 'complete' }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm-plan-information'));
    expect(assign).not.toHaveBeenCalled();
  });

  it('Setup complete (subscriber): an enrolled member with an inactive membership gets the cannot-enrol dialog without a call', async () => {
    const { calls } = renderFlow(memberFixture({ subscription: { status: 'inactive', expire: '2025-01-01' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: 'You have an inactive membership with Front Range Direct Primary Care' });
    expect(dialog.textContent).toContain('Please contact us through our support email for further assistance.');
    expect(calls).toHaveLength(0);
  });

  it('a server failure of set provider opens the error modal, and Retry repeats the call', async () => {
    let attempts = 0;
    const { calls } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null }), {
      get 'POST /member/app/set/provider'() {
        attempts += 1;
        return attempts === 1 ? { status: 503, body: { message: 'Service unavailable', code: 'http_503' } } : enrolled();
      },
      'GET /member/app/provider/1/postenrollment': noRedirect,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('dialog', { name: "Great! You're all set." })).toBeTruthy();
    const sets = calls.filter((call) => call.url.pathname === '/member/app/set/provider');
    expect(sets).toHaveLength(2);
    expect(bodyOf(sets[1]!)).toEqual(bodyOf(sets[0]!));
  });

  it('no answer at all (the network) opens the same modal; the change answer is repeated with change: true', async () => {
    signIn();
    const paths: string[] = [];
    let attempts = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), 'http://localhost');
        paths.push(`${url.pathname} ${String(init?.body ?? '')}`);
        if (url.pathname === '/member/app/set/provider') {
          attempts += 1;
          if (attempts === 1) throw new TypeError('Failed to fetch');
          return new Response(JSON.stringify(enrolled({ changed: true }).body), { status: 200 });
        }
        return new Response(JSON.stringify(noRedirect.body), { status: 200 });
      }),
    );
    const state = memberStateFrom(memberFixture({ subscription: { status: 'pending', expire: '2027-01-01' } }));
    renderRoutes({ '/': <MemberStateContext value={state}><Harness /></MemberStateContext> }, '/');
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Change provider?' })).getByRole('button', { name: 'Yes, change provider' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' })).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('dialog', { name: 'Provider changed' })).toBeTruthy();
    const sets = paths.filter((entry) => entry.startsWith('/member/app/set/provider'));
    expect(sets).toEqual(['/member/app/set/provider {"providerId":1,"locationId":3,"change":true}', '/member/app/set/provider {"providerId":1,"locationId":3,"change":true}']);
  });

  it("a family member's server failure: the error modal; giving up clears the family member", async () => {
    const { calls } = renderFlow(
      memberFixture({ family }),
      { 'POST /member/app/family/member/22/set/provider': { status: 500, body: { message: 'Internal error', code: 'internal' } } },
      { dependentId: 22 },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' });
    expect(selectedDependent.get()).toBe(22);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(selectedDependent.get()).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('offers Connect me now when the clinic has its own portal', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const { router } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null }), {
      'POST /member/app/set/provider': enrolled(),
      'GET /member/app/provider/1/postenrollment': { body: { postMemberEnrollment: { redirect: 'https://portal.frontrange.example/join' } } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: "You're enrolled with Front Range Direct Primary Care" });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect me now' }));
    expect(open).toHaveBeenCalledWith('https://portal.frontrange.example/join', '_blank', 'noopener');
    await waitFor(() => expect(router.state.location.pathname).toBe('/membership'));
  });

  it('a server failure of the post-enrolment lookup opens the error modal; Retry repeats the lookup only', async () => {
    let lookups = 0;
    const { calls } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null }), {
      'POST /member/app/set/provider': enrolled(),
      get 'GET /member/app/provider/1/postenrollment'() {
        lookups += 1;
        return lookups === 1 ? { status: 500, body: { message: 'Internal error', code: 'internal' } } : noRedirect;
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' })).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('dialog', { name: "Great! You're all set." })).toBeTruthy();
    expect(calls.filter((call) => call.url.pathname === '/member/app/set/provider')).toHaveLength(1);
    expect(calls.filter((call) => call.url.pathname === '/member/app/provider/1/postenrollment')).toHaveLength(2);
  });

  it('giving up on the post-enrolment lookup goes to the account details, flagged', async () => {
    const { router } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null }), {
      'POST /member/app/set/provider': enrolled(),
      'GET /member/app/provider/1/postenrollment': { status: 500, body: { message: 'Internal error', code: 'internal' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Oops, something went wrong. Please try again.' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
    expect((router.state.location.state as { message: string }).message).toBe('Oops. Something went wrong');
  });

  it('a refused post-enrolment lookup (not a server failure) goes straight to the account details, flagged', async () => {
    const { router } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null }), {
      'POST /member/app/set/provider': enrolled(),
      'GET /member/app/provider/1/postenrollment': { status: 404, body: { message: 'Provider not found', code: 'not_found' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
    expect(screen.queryByRole('dialog', { name: 'Oops, something went wrong. Please try again.' })).toBeNull();
  });

  it('after Connect me now, a subscriber with family is asked to add them: Yes goes to /add-family-member', async () => {
    vi.spyOn(window, 'open').mockImplementation(() => null);
    const { router } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null, hasFamily: true }), {
      'POST /member/app/set/provider': enrolled(),
      'GET /member/app/provider/1/postenrollment': { body: { postMemberEnrollment: { redirect: 'https://portal.frontrange.example/join' } } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: "You're enrolled with Front Range Direct Primary Care" })).getByRole('button', { name: 'Connect me now' }));
    const question = await screen.findByRole('dialog', { name: 'Add family members' });
    expect(question.textContent).toContain('Would you like to add your family members to your membership?');
    expect(router.state.location.pathname).toBe('/marketplace');
    fireEvent.click(within(question).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/add-family-member'));
    expect(addFamilyChoice.get()).toBe('yes');
  });

  it("after Connect me now, No I'm all set goes to the membership card", async () => {
    vi.spyOn(window, 'open').mockImplementation(() => null);
    const { router } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null, family }), {
      'POST /member/app/set/provider': enrolled(),
      'GET /member/app/provider/1/postenrollment': { body: { postMemberEnrollment: { redirect: 'https://portal.frontrange.example/join' } } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: "You're enrolled with Front Range Direct Primary Care" })).getByRole('button', { name: 'Connect me now' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Add family members' })).getByRole('button', { name: "No I'm all set" }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/membership'));
    expect(addFamilyChoice.get()).toBe('no');
  });

  it('enrols the selected family member through their own call, then the account details', async () => {
    const { calls, router } = renderFlow(
      memberFixture({ family }),
      { 'POST /member/app/family/member/22/set/provider': enrolled({ message: 'You have been enrolled with Front Range Direct Primary Care' }), 'GET /member/app/provider/1/postenrollment': noRedirect },
      { dependentId: 22 },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: "Great! You're all set." });
    expect(dialog.textContent).toContain('John has been enrolled with Front Range Direct Primary Care.');
    expect(calls[0]!.url.pathname).toBe('/member/app/family/member/22/set/provider');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/details'));
    expect(router.state.location.search).toBe('?panel=family');
    expect(selectedDependent.get()).toBeNull();
  });

  it("a family member's failure shows the dependent error with the server's message and clears them", async () => {
    renderFlow(
      memberFixture({ family }),
      { 'POST /member/app/family/member/22/set/provider': { status: 409, body: { message: 'This location is not accepting new patients at the moment', code: 'not_accepting' } } },
      { dependentId: 22 },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: "Something went wrong while selecting for John's provider." });
    expect(within(dialog).getByText('This location is not accepting new patients at the moment')).toBeTruthy();
    expect(selectedDependent.get()).toBeNull();
  });

  it.each([
    [403, 'employer_inactive', 'Oops, your employer does not offer this benefit yet', 'Oops, your employer does not offer this benefit yet'],
    [409, 'already_enrolled', "You're already enrolled with a provider", "You're already enrolled with a provider"],
    [409, 'pediatric_not_offered', 'This clinic does not offer pediatric services. Please find another DPC clinic for this dependent', 'This clinic does not offer pediatric services'],
    [409, 'not_accepting', 'This location is not accepting new patients at the moment', 'Oops. Something went wrong'],
  ])('shows the server refusal %s %s in its dialog', async (status, code, message, title) => {
    renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null }), { 'POST /member/app/set/provider': { status, body: { message, code } } });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const dialog = await screen.findByRole('dialog', { name: title });
    expect(dialog.textContent).toContain(code === 'pediatric_not_offered' ? 'Please find another DPC clinic for this dependent' : message);
    if (code === 'not_accepting') expect(dialog.textContent).toContain('Please select another provider');
  });

  it('asks for the confirmation when the server saw a pending membership first', async () => {
    const { calls } = renderFlow(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null }), {
      'POST /member/app/set/provider': { status: 409, body: { message: 'You have a pending membership with LoDo', code: 'change_needs_confirmation', clinic: 'LoDo' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const confirm = await screen.findByRole('dialog', { name: 'Change provider?' });
    expect(confirm.textContent).toContain('You have a pending membership with LoDo');
    expect(calls).toHaveLength(1);
  });

  it('sends one call however often Select is pressed while it runs', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    signIn();
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://localhost');
        calls.push(url.pathname);
        if (url.pathname === '/member/app/set/provider') await gate;
        const body = url.pathname.endsWith('/postenrollment') ? noRedirect.body : enrolled().body;
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const state = memberStateFrom(memberFixture({ nextStep: 'selectDPC', subscription: null, location: null }));
    renderRoutes({ '/': <MemberStateContext value={state}><Harness /></MemberStateContext> }, '/');
    const button = screen.getByRole('button', { name: 'Select' });
    fireEvent.click(button);
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    release();
    expect(await screen.findByRole('dialog', { name: "Great! You're all set." })).toBeTruthy();
    expect(calls.filter((path) => path === '/member/app/set/provider')).toHaveLength(1);
  });
});

describe('the change-provider confirmation', () => {
  it('names both locations, not the organisation twice', async () => {
    const member = memberFixture({ subscription: { status: 'pending', expire: '2027-01-01' } });
    member.location = { ...member.location!, locationName: 'LoDo' };
    renderFlow(member);
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const confirm = await screen.findByRole('dialog', { name: 'Change provider?' });
    expect(confirm.textContent).toContain('You have a pending membership with Front Range Direct Primary Care — LoDo. Do you want to change to Front Range Direct Primary Care — Highlands?');
  });
});
