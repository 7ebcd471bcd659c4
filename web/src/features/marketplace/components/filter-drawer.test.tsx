import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '@/test/render';
import type { SearchFilters } from '@/api/market/types';
import { activeFilterChips, DEFAULT_FILTERS, sliderLabel, sliderMiles } from '../utils/filters';
import { FilterDrawer } from './filter-drawer';

function serveLists() {
  return mockFetch((url) => {
    if (url.pathname === '/market/credentials/provider') return { body: ['DO', 'MD', 'NP', 'PA'] };
    if (url.pathname === '/market/specialities') return { body: ['Family Medicine', 'Internal Medicine'] };
    if (url.pathname === '/market/organization/company/name') {
      const names = ['Alpine Health', 'Blue Sky DPC', 'Cedar Care', 'Delta Clinic', 'Evergreen Partners'];
      const search = url.searchParams.get('search')?.toLowerCase() ?? '';
      return { body: names.filter((name) => name.toLowerCase().includes(search)) };
    }
    return undefined;
  });
}

function renderDrawer(filters: SearchFilters = DEFAULT_FILTERS) {
  const onApply = vi.fn();
  const onClose = vi.fn();
  const utils = renderWithProviders(<FilterDrawer open onClose={onClose} filters={filters} onApply={onApply} alias={null} />);
  return { ...utils, onApply, onClose };
}

describe('distance slider mapping', () => {
  it('maps 1..9 to 10..50 miles and 0 to no slider limit, which searches the widest 100 miles and says so', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(sliderMiles)).toEqual([10, 15, 20, 25, 30, 35, 40, 45, 50]);
    expect(sliderMiles(0)).toBeNull();
    // The results summary says 'within 100 miles' then: the slider and the chip say the same.
    expect(sliderLabel(0)).toBe('100 miles');
    expect(activeFilterChips({ ...DEFAULT_FILTERS, searchDistance: 0 }).map((chip) => chip.label)).toContain('Within 100 miles');
    expect(sliderLabel(5)).toBe('30 miles');
  });
});

describe('FilterDrawer', () => {
  it("is titled 'Filter solutions' and starts at 30 miles", async () => {
    serveLists();
    renderDrawer();
    expect(screen.getByRole('heading', { name: 'Filter solutions' })).toBeTruthy();
    const slider = screen.getByRole('slider', { name: 'Distance' }) as HTMLInputElement;
    expect(slider.value).toBe('5');
    expect(slider.min).toBe('0');
    expect(slider.max).toBe('9');
    expect(screen.getByTestId('distance-output').textContent).toBe('30 miles');
    fireEvent.change(slider, { target: { value: '1' } });
    expect(screen.getByTestId('distance-output').textContent).toBe('10 miles');
    fireEvent.change(slider, { target: { value: '0' } });
    expect(screen.getByTestId('distance-output').textContent).toBe('100 miles');
  });

  it('shows chips for the active filters and applies them with View results', async () => {
    serveLists();
    const { onApply } = renderDrawer();
    fireEvent.click(screen.getByLabelText('Only clinics accepting new patients'));
    fireEvent.click(screen.getByLabelText('Female'));
    fireEvent.click(await screen.findByLabelText('MD'));
    const chips = screen.getByRole('list', { name: 'Active filters' });
    expect(within(chips).getAllByRole('listitem').map((chip) => chip.textContent)).toEqual(['Accepting new patients', 'MD', 'Female']);
    fireEvent.click(screen.getByRole('button', { name: 'View results' }));
    expect(onApply).toHaveBeenCalledWith(
      expect.objectContaining({ newPatients: true, selectedGenders: ['F'], selectedCredentials: ['MD'], searchDistance: 5 }),
    );
  });

  it('Clear All resets every filter and removes the chips', async () => {
    serveLists();
    const { onApply } = renderDrawer({ ...DEFAULT_FILTERS, newPatients: true, pediatrics: true, searchDistance: 2, searchByName: 'cedar' });
    expect(within(screen.getByRole('list', { name: 'Active filters' })).getAllByRole('listitem')).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(screen.queryByRole('list', { name: 'Active filters' })).toBeNull();
    expect((screen.getByRole('slider', { name: 'Distance' }) as HTMLInputElement).value).toBe('5');
    expect((screen.getByLabelText('Only clinics accepting new patients') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'View results' }));
    expect(onApply).toHaveBeenCalledWith(DEFAULT_FILTERS);
  });

  it('shows 3 organisations until See more, and searches them', async () => {
    serveLists();
    renderDrawer();
    const group = (await screen.findByText('Alpine Health')).closest('fieldset')!;
    expect(within(group).getAllByRole('checkbox')).toHaveLength(3);
    fireEvent.click(within(group).getByRole('button', { name: 'See more' }));
    expect(within(group).getAllByRole('checkbox')).toHaveLength(5);
    fireEvent.click(within(group).getByRole('button', { name: 'See less' }));
    expect(within(group).getAllByRole('checkbox')).toHaveLength(3);
    await act(async () => {
      fireEvent.change(within(group).getByRole('searchbox'), { target: { value: 'delta' } });
    });
    expect(await within(group).findByLabelText('Delta Clinic')).toBeTruthy();
  });

  it('removing a chip drops just that filter', () => {
    const filters = { ...DEFAULT_FILTERS, selectedCredentials: ['MD', 'NP'], newPatients: true };
    const chips = activeFilterChips(filters);
    const md = chips.find((chip) => chip.label === 'MD')!;
    expect(md.without(filters)).toEqual({ ...filters, selectedCredentials: ['NP'] });
  });
});

describe('FilterDrawer name limits', () => {
  it("keeps the name to the server's 100 characters and 8 words, saying so in the field, so View results never sends what the search refuses", () => {
    serveLists();
    const { onApply } = renderDrawer();
    const name = screen.getByLabelText('Search by organization or provider name');
    expect(name.getAttribute('maxlength')).toBe('100');
    fireEvent.change(name, { target: { value: 'one two three four five six seven eight nine' } });
    expect(screen.getByRole('alert').textContent).toBe('Use at most 8 words.');
    const view = screen.getByRole('button', { name: 'View results' });
    expect((view as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(view);
    expect(onApply).not.toHaveBeenCalled();
    fireEvent.change(name, { target: { value: 'Front Range' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'View results' }));
    expect(onApply).toHaveBeenCalledWith(expect.objectContaining({ searchByName: 'Front Range' }));
  });
});

describe('a shared link with too long a name', () => {
  it('is cut to what the server searches', async () => {
    const { decodeFilters } = await import('../utils/search-url');
    const long = Array.from({ length: 12 }, (_, index) => `word${index}`).join(' ');
    expect(decodeFilters(new URLSearchParams({ name: long })).searchByName).toBe('word0 word1 word2 word3 word4 word5 word6 word7');
    expect(decodeFilters(new URLSearchParams({ name: 'x'.repeat(5000) })).searchByName).toHaveLength(100);
  });
});
