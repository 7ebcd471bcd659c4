import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '@/test/render';
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
    expect(button.disabled).toBe(false);
  });

  it('explains gracefully when the waitlist call fails', async () => {
    const { calls } = mockFetch(() => ({ status: 404, body: { message: 'Not found', code: 'not_found' } }));
    renderWithProviders(<EmptyResults kind="clinics" search={search} />);
    fireEvent.change(screen.getByLabelText('Get an email when a clinic opens near you'), { target: { value: 'jane@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    expect(await screen.findByText(/couldn't save your request/)).toBeTruthy();
    expect(calls[0]!.url.pathname).toBe('/member/app/join/wait/list');
    expect(JSON.parse(String(calls[0]!.init!.body))).toMatchObject({ email: 'jane@example.com', search: { address: 'Denver, CO' } });
  });
});
