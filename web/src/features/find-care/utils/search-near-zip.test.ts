import { describe, expect, it } from 'vitest';
import { bodyOf, mockFetch } from '@/test/render';
import { CREDENTIALS, credentialCodes, defaultFilters, zipError } from './filters';
import { searchNearZip } from './search-near-zip';

describe('find care search', () => {
  it('sends the catalogue codes of the chosen credentials, never their labels', async () => {
    const { calls } = mockFetch((url) => {
      if (url.pathname === '/member/app/market/locations/geocode') return { body: { results: [{ geometry: { location: { lat: 39.75, lng: -104.99 } }, formatted_address: 'Denver, CO 80202' }] } };
      if (url.pathname === '/member/app/market/search') return { body: { clinics: [], clinicians: [], totalPages: 0, currentPage: 1, totalResults: 0, origin: { lat: 39.75, lng: -104.99 }, radiusMiles: 20 } };
      return undefined;
    });
    await searchNearZip(
      '80202',
      { ...defaultFilters(), credentials: ['Doctor', 'Nurse Practitioner'], providerName: ' Rivera ', genders: ['F'], organization: 'Front Range Health' },
      'acme',
    );

    const search = calls.find((call) => call.url.pathname === '/member/app/market/search')!;
    type Sent = { selectedCredentials: string[]; searchDistance: number; searchByName: string; selectedGenders: string[]; selectedGroupAndOrganizations: string[] };
    const filters = (bodyOf(search) as { search: { filters: Sent } }).search.filters;
    expect(filters.selectedCredentials).toEqual(['MD', 'DO', 'NP', 'FNP', 'APRN']);
    expect(filters.searchByName).toBe('Rivera');
    expect(filters.selectedGenders).toEqual(['F']);
    expect(filters.selectedGroupAndOrganizations).toEqual(['Front Range Health']);
    expect(filters.searchDistance).toBe(3);
    expect(Object.fromEntries(search.url.searchParams)).toMatchObject({ page: '1', limit: '6', lat: '39.75', lng: '-104.99', company: 'acme', userZipCode: '80202' });
  });

  it('maps every credential the filters screen offers to the codes the catalogue uses', () => {
    // The seeded catalogue's credentials (crates/seed/src/clinicians.rs).
    const catalogue = ['MD', 'DO', 'NP', 'PA', 'FNP', 'APRN'];
    expect(CREDENTIALS).toEqual(['Physician Assistant', 'Doctor', 'Nurse Practitioner']);
    for (const label of CREDENTIALS) {
      expect(credentialCodes([label]).length).toBeGreaterThan(0);
      for (const code of credentialCodes([label])) expect(catalogue).toContain(code);
    }
    expect(credentialCodes(['Physician Assistant'])).toEqual(['PA']);
  });

  it('takes a ZIP code of 5 digits, optionally with 4 more', () => {
    expect(zipError('')).toBeNull();
    expect(zipError('80202')).toBeNull();
    expect(zipError('80202-1234')).toBeNull();
    expect(zipError('8020')).toBe('Enter a 5-digit ZIP code');
  });
});
