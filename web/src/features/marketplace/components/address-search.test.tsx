import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '@/test/render';
import { ADDRESS_TEXTS, AddressSearch } from './address-search';

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

  it('says why an empty box searches nothing, and limits the text to the 300 characters the server geocodes', () => {
    mockFetch(() => ({ body: { predictions: [] } }));
    const onText = vi.fn();
    renderWithProviders(<AddressSearch onPlace={vi.fn()} onText={onText} />);
    const box = screen.getByRole('combobox', { name: 'Address, city or ZIP code' });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('alert').textContent).toBe(ADDRESS_TEXTS.empty);
    expect(onText).not.toHaveBeenCalled();
    expect(box.getAttribute('maxlength')).toBe('300');
    fireEvent.change(box, { target: { value: 'a'.repeat(300) } });
    expect(screen.getByRole('alert').textContent).toBe(ADDRESS_TEXTS.tooLong);
    fireEvent.change(box, { target: { value: 'Denver' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the place found by "Use my current location" in place of the text typed before', async () => {
    mockFetch(() => ({ body: { predictions: [] } }));
    // The page: the located place becomes the search, whose address the box shows.
    function Page() {
      const [address, setAddress] = useState('80202');
      return <AddressSearch initialValue={address} onPlace={vi.fn()} onText={vi.fn()} onMyLocation={() => setAddress('Boulder, CO 80302, USA')} />;
    }
    renderWithProviders(<Page />);
    const box = screen.getByRole<HTMLInputElement>('combobox', { name: 'Address, city or ZIP code' });
    fireEvent.change(box, { target: { value: 'Old text' } });
    const locate = screen.getByRole('button', { name: 'Use my current location' });
    locate.focus();
    fireEvent.click(locate);
    await waitFor(() => expect(box.value).toBe('Boulder, CO 80302, USA'));
  });
});
