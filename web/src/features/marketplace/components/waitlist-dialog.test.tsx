import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderWithProviders, signIn } from '@/test/render';
import { DEFAULT_FILTERS } from '../utils/filters';
import { WaitlistDialog } from './waitlist-dialog';

const search = { location: { lat: 39.72, lng: -104.95 }, address: 'Cherry Creek, Denver', filters: { ...DEFAULT_FILTERS, newPatients: true } };
const cherryCreek = { locationId: 2, name: 'Front Range Direct Primary Care' };
const added = { status: 201, body: { id: 9, message: "You've been added to the waitlist", alreadyListed: false } };

afterEach(() => vi.useRealTimers());

describe('WaitlistDialog', () => {
  it('signed out: Notify Me waits for a valid email (normalised after 500 ms) and the consent box', async () => {
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/join/wait/list' ? added : undefined));
    renderWithProviders(<WaitlistDialog item={cherryCreek} onClose={vi.fn()} search={search} />);
    const dialog = screen.getByRole('dialog', { name: 'Join the waitlist' });
    const notify = within(dialog).getByRole('button', { name: 'Notify Me' }) as HTMLButtonElement;
    expect(notify.disabled).toBe(true);
    vi.useFakeTimers();
    fireEvent.click(within(dialog).getByLabelText('I agree to be contacted by the provider'));
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'Sam@Example.COM' } });
    // Still typing at 499 ms: neither valid nor wrong.
    act(() => vi.advanceTimersByTime(499));
    expect(notify.disabled).toBe(true);
    expect(within(dialog).queryByText('Please enter a valid e-mail')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('sam@example.com');
    expect(notify.disabled).toBe(false);
    fireEvent.click(notify);
    expect(await screen.findByRole('dialog', { name: "You've been added to the waitlist" })).toBeTruthy();
    expect(bodyOf(calls[0]!)).toEqual({ email: 'sam@example.com', consent: true, location: 2, search });
  });

  it('signed in with an email: added at once, without a form', async () => {
    signIn();
    const { calls } = mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture() };
      if (url.pathname === '/member/app/join/wait/list') return added;
      return undefined;
    });
    renderWithProviders(<WaitlistDialog item={cherryCreek} onClose={vi.fn()} search={search} />);
    const dialog = await screen.findByRole('dialog', { name: "You've been added to the waitlist" });
    expect(dialog.textContent).toContain("We'll email jane.doe@acme.example when a spot opens.");
    expect(screen.queryByLabelText('Email')).toBeNull();
    const joins = calls.filter((call) => call.url.pathname === '/member/app/join/wait/list');
    expect(joins).toHaveLength(1);
    expect(bodyOf(joins[0]!)).toEqual({ email: 'jane.doe@acme.example', member: 7, location: 2, search });
    // The analytics record of the join (number fixed at 5).
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/member/app/metadata')).toBe(true));
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/metadata')!)).toEqual({
      addressSearched: 'Cherry Creek, Denver',
      filterSearch: 'Accepting new patients',
      resultsReturned: false,
      results: null,
      employer: null,
      addedtoWaitlist: true,
      organizationWaitlisted: 'Front Range Direct Primary Care',
      email: 'jane.doe@acme.example',
      number: 5,
    });
  });

  it("signed in without an email: the '{name} has no email' dialog, and no call", async () => {
    signIn();
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/member/info' ? { body: memberFixture({ email: '' }) } : undefined));
    renderWithProviders(<WaitlistDialog item={cherryCreek} onClose={vi.fn()} search={search} />);
    expect(await screen.findByRole('dialog', { name: 'Jane Doe has no email' })).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/member/app/join/wait/list')).toBe(false);
  });

  it("shows the server's no_email answer in the same dialog", async () => {
    signIn();
    mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture() };
      if (url.pathname === '/member/app/join/wait/list') return { status: 400, body: { message: 'Jane Doe has no email', code: 'no_email' } };
      return undefined;
    });
    renderWithProviders(<WaitlistDialog item={cherryCreek} onClose={vi.fn()} search={search} />);
    expect(await screen.findByRole('dialog', { name: 'Jane Doe has no email' })).toBeTruthy();
  });

  it('says so when the email was already on the list', async () => {
    signIn();
    mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture() };
      if (url.pathname === '/member/app/join/wait/list') return { body: { id: 9, message: "You've been added to the waitlist", alreadyListed: true } };
      return undefined;
    });
    renderWithProviders(<WaitlistDialog item={cherryCreek} onClose={vi.fn()} search={search} />);
    const dialog = await screen.findByRole('dialog', { name: "You've been added to the waitlist" });
    await waitFor(() => expect(dialog.textContent).toContain('You were already on the waitlist of'));
  });

  it('shows a malformed email\'s error only after the 500 ms pause', () => {
    mockFetch(() => undefined);
    renderWithProviders(<WaitlistDialog item={cherryCreek} onClose={vi.fn()} search={search} />);
    const dialog = screen.getByRole('dialog', { name: 'Join the waitlist' });
    vi.useFakeTimers();
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'sam@' } });
    act(() => vi.advanceTimersByTime(499));
    expect(within(dialog).queryByText('Please enter a valid e-mail')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(within(dialog).getByText('Please enter a valid e-mail')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Notify Me' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("signed in, a failed join says 'Oops. Something went wrong'", async () => {
    signIn();
    mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture() };
      if (url.pathname === '/member/app/join/wait/list') return { status: 500, body: { message: 'Internal error', code: 'internal' } };
      return undefined;
    });
    renderWithProviders(<WaitlistDialog item={cherryCreek} onClose={vi.fn()} search={search} />);
    const dialog = await screen.findByRole('dialog', { name: 'Oops. Something went wrong' });
    expect(dialog.textContent).toContain('Please try again in a little while.');
  });
});
