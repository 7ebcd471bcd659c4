import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderWithProviders, signIn } from '@/test/render';
import { DEFAULT_FILTERS } from '../utils/filters';
import { EmptyResults } from './empty-results';

const search = { location: { lat: 39.7, lng: -104.9 }, address: 'Denver, CO', filters: DEFAULT_FILTERS };

afterEach(() => vi.useRealTimers());

describe('EmptyResults', () => {
  it('uses the exact texts', () => {
    mockFetch(() => undefined);
    const { unmount } = renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    expect(screen.getByText('There were no clinics found near the location you entered...')).toBeTruthy();
    unmount();
    renderWithProviders(<EmptyResults kind="clinicians" search={search} />);
    expect(screen.getByText('No clinicians found near your location')).toBeTruthy();
  });

  it("shows 'No results found!' for a filtered search", () => {
    mockFetch(() => undefined);
    renderWithProviders(<EmptyResults kind="general" search={search} onClearFilters={vi.fn()} />);
    expect(screen.getByText('No results found!')).toBeTruthy();
  });

  it('checks the email only after a 500 ms pause: disabled and no error at 499 ms, then valid (trimmed and lowercased) at 500 ms', async () => {
    vi.useFakeTimers();
    mockFetch(() => undefined);
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    const input = screen.getByLabelText('Get an email when a clinic opens near you') as HTMLInputElement;
    const button = screen.getByRole('button', { name: 'Notify me' }) as HTMLButtonElement;
    // Signed out, the consent box is needed too: tick it first so only the email decides.
    fireEvent.click(screen.getByLabelText('I agree to be contacted by the provider'));
    expect(button.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'not-an-email' } });
    act(() => vi.advanceTimersByTime(499));
    expect(screen.queryByText('Please enter a valid e-mail')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('Please enter a valid e-mail')).toBeTruthy();
    expect(button.disabled).toBe(true);
    // (An email input strips surrounding spaces itself; the pause lowercases and trims the rest.)
    fireEvent.change(input, { target: { value: 'Jane.Doe@Example.COM' } });
    expect(screen.queryByText('Please enter a valid e-mail')).toBeNull();
    act(() => vi.advanceTimersByTime(499));
    expect(input.value).toBe('Jane.Doe@Example.COM');
    expect(button.disabled).toBe(true);
    expect(screen.queryByText('Please enter a valid e-mail')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(input.value).toBe('jane.doe@example.com');
    expect(button.disabled).toBe(false);
    // Typing again puts the check off until the next pause.
    fireEvent.change(input, { target: { value: 'jane.doe@example.co' } });
    expect(button.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I agree to be contacted by the provider'));
    act(() => vi.advanceTimersByTime(500));
    // Without consent Notify me stays disabled.
    expect(button.disabled).toBe(true);
  });

  async function notifyAsVisitor() {
    vi.useFakeTimers();
    fireEvent.change(screen.getByLabelText('Get an email when a clinic opens near you'), { target: { value: 'jane@example.com' } });
    act(() => vi.advanceTimersByTime(500));
    vi.useRealTimers();
    fireEvent.click(screen.getByLabelText('I agree to be contacted by the provider'));
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
  }

  it("a failed call shows the 'Oops. Something went wrong' dialog", async () => {
    const { calls } = mockFetch(() => ({ status: 500, body: { message: 'Internal error', code: 'internal' } }));
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    await notifyAsVisitor();
    const dialog = await screen.findByRole('dialog', { name: 'Oops. Something went wrong' });
    expect(dialog.textContent).toContain('Please try again in a little while.');
    expect(dialog.textContent).not.toContain('Internal error');
    expect(calls[0]!.url.pathname).toBe('/member/app/join/wait/list');
    expect(JSON.parse(String(calls[0]!.init!.body))).toEqual({ email: 'jane@example.com', consent: true, search: { location: { lat: 39.7, lng: -104.9 }, address: 'Denver, CO', filters: DEFAULT_FILTERS } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Okay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The form stays, to try again.
    expect(screen.getByRole('button', { name: 'Notify me' })).toBeTruthy();
  });

  it("a refused request keeps the server's words under the same title", async () => {
    mockFetch(() => ({ status: 400, body: { message: 'I agree to be contacted by the provider', code: 'consent_required' } }));
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    await notifyAsVisitor();
    const dialog = await screen.findByRole('dialog', { name: 'Oops. Something went wrong' });
    expect(dialog.textContent).toContain('I agree to be contacted by the provider');
  });

  it('a visitor who is added gets the notified-near-a-clinic dialog', async () => {
    mockFetch(() => ({ status: 201, body: { id: 5, message: "You've been added to the waitlist", alreadyListed: false } }));
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    await notifyAsVisitor();
    const dialog = await screen.findByRole('dialog', { name: "We'll let you know when a clinic opens near you" });
    expect(dialog.textContent).toContain("We'll email jane@example.com when a clinic opens near Denver, CO.");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Okay' }));
    expect(await screen.findByText(/You're on the list/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Notify me' })).toBeNull();
  });

  it("signed in without an email: the '{name} has no email' dialog and no call", async () => {
    signIn();
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/member/info' ? { body: memberFixture({ email: '' }) } : undefined));
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    const button = screen.getByRole('button', { name: 'Notify me' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    expect(await screen.findByRole('dialog', { name: 'Jane Doe has no email' })).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/member/app/join/wait/list')).toBe(false);
  });

  it('signed in, notifies the member at their own email without asking for one', async () => {
    signIn();
    const { calls } = mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture() };
      if (url.pathname === '/member/app/join/wait/list') return { status: 201, body: { id: 5, message: "You've been added to the waitlist", alreadyListed: false } };
      return undefined;
    });
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByLabelText('I agree to be contacted by the provider')).toBeNull();
    const button = screen.getByRole('button', { name: 'Notify me' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: "We'll let you know when a clinic opens near you" });
    expect(dialog.textContent).toContain("We'll email jane.doe@acme.example when a clinic opens near Denver, CO.");
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/join/wait/list')!)).toEqual({ email: 'jane.doe@acme.example', member: 7, search: { ...search, filters: DEFAULT_FILTERS } });
  });
});
