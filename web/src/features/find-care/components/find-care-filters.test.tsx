import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderRoutes, signIn } from '@/test/render';
import { FindCareFiltersPage, FindCareSearchPage } from './find-care-pages';

const geocoded = { results: [{ geometry: { location: { lat: 40.01, lng: -105.27 } }, formatted_address: 'Boulder, CO 80301' }] };
const noResults = { clinics: [], clinicians: [], totalPages: 0, currentPage: 1, totalResults: 0, origin: { lat: 40.01, lng: -105.27 }, radiusMiles: 20 };

afterEach(() => window.sessionStorage.clear());

describe('find care filters (2.22)', () => {
  it('searches with the zip, provider name, credentials, provider gender and organization chosen', async () => {
    signIn();
    const { calls } = mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: memberFixture({ zipCode: '80202' }) };
      if (url.pathname === '/market/organization/company/name') return { body: ['Front Range Health', 'Mile High Care'] };
      if (url.pathname === '/member/app/market/locations/geocode') return { body: geocoded };
      if (url.pathname === '/member/app/market/search') return { body: noResults };
      return undefined;
    });
    renderRoutes({ '/find-care/search/filters': <FindCareFiltersPage />, '/find-care/search': <FindCareSearchPage /> }, '/find-care/search/filters');

    const zip = screen.getByLabelText('Zip code');
    fireEvent.change(zip, { target: { value: '8030' } });
    fireEvent.blur(zip);
    expect(screen.getByText('Enter a 5-digit ZIP code')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'View results' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(zip, { target: { value: '80301' } });
    fireEvent.change(screen.getByLabelText('Provider name'), { target: { value: 'Rivera' } });
    fireEvent.click(screen.getByLabelText('Doctor'));
    fireEvent.click(screen.getByLabelText('Female'));
    await screen.findByRole('option', { name: 'Mile High Care' });
    fireEvent.change(screen.getByLabelText('Organization'), { target: { value: 'Mile High Care' } });
    fireEvent.click(screen.getByRole('button', { name: 'View results' }));

    await screen.findByRole('heading', { name: 'Find Care by Zip Code' });
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/member/app/market/search')).toBe(true));
    const geocode = calls.find((call) => call.url.pathname === '/member/app/market/locations/geocode')!;
    expect(JSON.stringify(bodyOf(geocode)) + geocode.url.search).toContain('80301');
    const search = calls.find((call) => call.url.pathname === '/member/app/market/search')!;
    expect((bodyOf(search) as { search: { filters: unknown } }).search.filters).toMatchObject({
      searchByName: 'Rivera',
      selectedCredentials: ['MD', 'DO'],
      selectedGenders: ['F'],
      selectedGroupAndOrganizations: ['Mile High Care'],
    });
    expect(search.url.searchParams.get('userZipCode')).toBe('80301');
  });
});
