import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
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

  it('enables Notify me only for a valid email, trimmed and lowercased after a 500 ms pause', async () => {
    vi.useFakeTimers();
    mockFetch(() => undefined);
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    const input = screen.getByLabelText('Get an email when a clinic opens near you') as HTMLInputElement;
    const button = screen.getByRole('button', { name: 'Notify me' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'not-an-email' } });
    expect(button.disabled).toBe(true);
    // (An email input strips surrounding spaces itself; the pause lowercases and trims the rest.)
    fireEvent.change(input, { target: { value: 'Jane.Doe@Example.COM' } });
    expect(input.value).toBe('Jane.Doe@Example.COM');
    act(() => vi.advanceTimersByTime(499));
    expect(input.value).toBe('Jane.Doe@Example.COM');
    act(() => vi.advanceTimersByTime(1));
    expect(input.value).toBe('jane.doe@example.com');
    // Signed out, the consent box is needed too.
    expect(button.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I agree to be contacted by the provider'));
    expect(button.disabled).toBe(false);
  });

  it('explains gracefully when the waitlist call fails', async () => {
    const { calls } = mockFetch(() => ({ status: 404, body: { message: 'Not found', code: 'not_found' } }));
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    fireEvent.change(screen.getByLabelText('Get an email when a clinic opens near you'), { target: { value: 'jane@example.com' } });
    fireEvent.click(screen.getByLabelText('I agree to be contacted by the provider'));
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    expect(await screen.findByText(/couldn't save your request/)).toBeTruthy();
    expect(calls[0]!.url.pathname).toBe('/member/app/join/wait/list');
    expect(JSON.parse(String(calls[0]!.init!.body))).toEqual({ email: 'jane@example.com', consent: true, search: { location: { lat: 39.7, lng: -104.9 }, address: 'Denver, CO', filters: DEFAULT_FILTERS } });
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
    expect(await screen.findByText(/We'll email jane.doe@acme.example when a clinic opens near you/)).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/join/wait/list')!)).toEqual({ email: 'jane.doe@acme.example', member: 7, search: { ...search, filters: DEFAULT_FILTERS } });
  });
});
