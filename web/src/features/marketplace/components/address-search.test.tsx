import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '@/test/render';
import { AddressSearch } from './address-search';

const place = (zip: string, city: string) => ({ kind: 'zip', description: `${zip}, ${city}`, location: { lat: 40, lng: -100 } });

describe('AddressSearch', () => {
  it('never offers the previous text’s suggestions for what was typed since', async () => {
    mockFetch((url) => {
      if (url.pathname !== '/member/app/market/locations/autocomplete') return undefined;
      const input = url.searchParams.get('input') ?? '';
      return { body: { predictions: input.startsWith('1') ? [place('10011', 'New York, NY')] : [place('80211', 'Denver, CO')] } };
    });
    const onPlace = vi.fn();
    renderWithProviders(<AddressSearch onPlace={onPlace} onText={vi.fn()} />);
    const box = screen.getByRole('combobox', { name: 'Address, city or ZIP code' });
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: '10011' } });
    await screen.findByRole('option', { name: /^10011/ });
    fireEvent.change(box, { target: { value: '80211' } });
    // While 80211's suggestions are on their way, 10011's are not offered.
    expect(screen.queryByRole('option', { name: /^10011/ })).toBeNull();
    fireEvent.click(await screen.findByRole('option', { name: /^80211/ }));
    await waitFor(() => expect(onPlace).toHaveBeenCalledWith({ location: { lat: 40, lng: -100 }, label: '80211, Denver, CO' }));
    expect(onPlace).toHaveBeenCalledTimes(1);
  });
});
