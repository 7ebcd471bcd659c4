import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { SearchResponse } from '@/api/market/types';
import { clinicItem } from '@/test/fixtures';
import { createQueryClient } from '@/lib/query-client';
import { mockFetch, signIn, testQueryClient } from '@/test/render';
import { prefetchFirstScreen } from './first-screen';
import { MarketplaceRoute } from './routes/marketplace';

const origin = { lat: 39.751534, lng: -104.997671 };
const searchPage: SearchResponse = { clinics: [clinicItem()], clinicians: [], totalPages: 1, currentPage: 1, totalResults: 1, origin, radiusMiles: 30 };

/** The server of a company link's first screen: Acme's alias, a Denver ZIP code and one clinic. */
function companyLinkServer() {
  return mockFetch((url) => {
    switch (url.pathname) {
      case '/market/organization/from/alias':
        return { body: { companyName: 'Acme Corporation', alias: 'acme', id: 7, status: 'active' } };
      case '/member/app/market/locations/geocode':
        return { body: { results: [{ geometry: { location: origin }, formatted_address: 'Denver, CO 80202, USA', zipCode: '80202', state: 'CO' }] } };
      case '/member/app/market/search':
        return { body: searchPage };
      case '/member/app/potential/employers':
        return { body: [] };
      case '/member/app/market':
        return { body: { categories: [] } };
      default:
        return undefined;
    }
  });
}

describe('the first screen started before React renders', () => {
  it("asks a company link's calls once: the page finds the alias, the place and the search in the cache", async () => {
    const { calls } = companyLinkServer();
    // The app's own cache settings: an answer is fresh for a minute, so a screen does not ask again.
    const queryClient = createQueryClient();
    const completed = await prefetchFirstScreen(queryClient, { pathname: '/marketplace', search: '?company=acme&location=80202' });
    // The link completed as the page writes it after geocoding: the place's coordinates, rounded.
    expect(completed?.toString()).toBe('company=acme&location=80202&lat=39.75153&lng=-104.99767');
    const asked = calls.length;
    expect(calls.map((call) => call.url.pathname).sort()).toEqual([
      '/market/organization/from/alias',
      '/member/app/market',
      '/member/app/market/locations/geocode',
      '/member/app/market/search',
      '/member/app/potential/employers',
    ]);

    const router = createMemoryRouter([{ path: '/marketplace', element: <MarketplaceRoute /> }], { initialEntries: [`/marketplace?${completed}`] });
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByRole('article', { name: /Mile High Direct Primary Care/ });
    // The employer is the alias's answer, and nothing the prefetch asked is asked again.
    expect(screen.getAllByText('Acme Corporation').length).toBeGreaterThan(0);
    const after = calls.slice(asked).map((call) => call.url.pathname);
    expect(after.filter((path) => path !== '/member/app/metadata')).toEqual([]);
  });

  it('leaves a signed-in visit and other pages to the screens', async () => {
    const { calls } = companyLinkServer();
    expect(await prefetchFirstScreen(testQueryClient(), { pathname: '/account/details', search: '' })).toBeNull();
    signIn();
    expect(await prefetchFirstScreen(testQueryClient(), { pathname: '/marketplace', search: '?company=acme&location=80202' })).toBeNull();
    expect(calls).toEqual([]);
  });
});
