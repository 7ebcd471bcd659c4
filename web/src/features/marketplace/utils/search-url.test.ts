import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS } from './filters';
import { INITIAL_SEARCH_STATE, type SearchState } from './search-state';
import { decodeSearchState, encodeSearchState, namesSearch, searchQueryOnly } from './search-url';

const full: SearchState = {
  ...INITIAL_SEARCH_STATE,
  origin: { lat: 40.75064, lng: -73.99718 },
  address: 'New York, NY 10001',
  filters: {
    searchByName: 'Hudson',
    newPatients: true,
    pediatrics: true,
    favorites: true,
    selectedGroupAndOrganizations: ['Hudson Family Health', 'Smith, Jones & Co'],
    selectedCredentials: ['MD', 'DO'],
    selectedSpecialities: ['Family Medicine'],
    selectedGenders: ['F'],
    searchDistance: 0,
    selectedLanguages: ['es', 'vi'],
    selectedAccessibility: ['handiaccess', 'pubtrans'],
  },
  page: 3,
  providerPage: 2,
  tab: 'providers',
  userZipCode: '10016',
};

describe('the marketplace search in the URL', () => {
  it('reads back every part of a search it wrote', () => {
    expect(decodeSearchState(encodeSearchState(full))).toEqual(full);
  });

  it('writes a plain search as a short link and leaves defaults out', () => {
    const plain = { ...INITIAL_SEARCH_STATE, address: '80202', origin: { lat: 39.7533, lng: -104.9994 } };
    expect(encodeSearchState(plain).toString()).toBe('location=80202&lat=39.7533&lng=-104.9994');
    expect(decodeSearchState(new URLSearchParams('location=80202'))).toEqual({ ...INITIAL_SEARCH_STATE, address: '80202' });
  });

  it('keeps the parameters that are not the search (company, selectProvider, view)', () => {
    const base = new URLSearchParams('company=acme&selectProvider=true&view=map&page=9');
    const next = encodeSearchState({ ...INITIAL_SEARCH_STATE, address: '80202' }, base);
    expect(next.toString()).toBe('company=acme&selectProvider=true&view=map&location=80202');
  });

  it('falls back to defaults for malformed values', () => {
    const state = decodeSearchState(new URLSearchParams('lat=91&lng=10&distance=12&page=-2&tab=everything&gender=X&gender=M&newPatients=yes'));
    expect(state.origin).toBeNull();
    expect(state.filters).toEqual({ ...DEFAULT_FILTERS, selectedGenders: ['M'] });
    expect(state.page).toBe(1);
    expect(state.tab).toBe('all');
  });

  it('writes languages and accessibility as repeated parameters a shared link restores', () => {
    const link = encodeSearchState({ ...INITIAL_SEARCH_STATE, address: '80202', filters: { ...DEFAULT_FILTERS, selectedLanguages: ['es', 'zh'], selectedAccessibility: ['handiaccess'] } });
    expect(link.toString()).toBe('location=80202&language=es&language=zh&access=handiaccess');
    expect(decodeSearchState(new URLSearchParams('location=80202&language=ES&language=es&access=pubtrans')).filters).toEqual({
      ...DEFAULT_FILTERS,
      selectedLanguages: ['es'],
      selectedAccessibility: ['pubtrans'],
    });
  });

  it('knows whether a URL names a search, and keeps only the search as the last one', () => {
    expect(namesSearch(new URLSearchParams('company=acme&selectProvider=true'))).toBe(false);
    expect(namesSearch(new URLSearchParams('company=acme&location=80202'))).toBe(true);
    expect(namesSearch(new URLSearchParams('lat=39.7&lng=-104.9'))).toBe(true);
    expect(searchQueryOnly(new URLSearchParams('company=acme&location=80202&selectProvider=true&page=2'))).toBe('location=80202&page=2');
  });
});

describe("a linked address's coordinates", () => {
  it('complete the search of that address, and are dropped once another search is under way', async () => {
    const { searchReducer } = await import('./search-state');
    const linked = decodeSearchState(new URLSearchParams('location=10001'));
    const origin = { lat: 40.75, lng: -73.99 };
    expect(searchReducer(linked, { type: 'locate', origin, address: '10001' }).origin).toEqual(origin);
    const elsewhere = searchReducer(linked, { type: 'search', origin: { lat: 39.76, lng: -105.02 }, address: '80211' });
    expect(searchReducer(elsewhere, { type: 'locate', origin, address: '10001' })).toBe(elsewhere);
  });
});
