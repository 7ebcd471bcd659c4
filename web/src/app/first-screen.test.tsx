import { afterAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { LatLng, SearchResponse } from '@/api/market/types';
import { clinicItem } from '@/test/fixtures';
import { createQueryClient } from '@/lib/query-client';
import { bodyOf, mockFetch, signIn, testQueryClient, renderInAppRouter } from '@/test/render';
import { PAINTED_ANSWERS_ID, readPaintedAnswers, startFirstScreen, type PaintedAnswers } from './first-screen';
import { MarketplaceRoute } from './routes/marketplace';

const LINK = '?company=acme&location=80202';
const place = { lat: 39.751534, lng: -104.997671 };

/**
 * The server of a company link's first screen: Acme's alias, a Denver ZIP code and one clinic,
 * the search measuring from `zipCentroid` when asked for a ZIP code without coordinates.
 */
function companyLinkServer(zipCentroid: LatLng = place) {
  return mockFetch((url) => {
    switch (url.pathname) {
      case '/market/organization/from/alias':
        return { body: { companyName: 'Acme Corporation', alias: 'acme', id: 7, status: 'active' } };
      case '/member/app/market/locations/geocode':
        return { body: { results: [{ geometry: { location: place }, formatted_address: 'Denver, CO 80202, USA', zipCode: '80202', state: 'CO' }] } };
      case '/member/app/market/search': {
        const origin = url.searchParams.has('lat') ? { lat: Number(url.searchParams.get('lat')), lng: Number(url.searchParams.get('lng')) } : zipCentroid;
        const answer: SearchResponse = { clinics: [clinicItem()], clinicians: [], totalPages: 1, currentPage: 1, totalResults: 1, origin, radiusMiles: 30 };
        return { body: answer };
      }
      case '/member/app/potential/employers':
        return { body: [] };
      case '/member/app/market':
        return { body: { categories: [] } };
      default:
        return undefined;
    }
  });
}

function renderMarketplace(queryClient: ReturnType<typeof createQueryClient>) {
  return renderInAppRouter([{ path: '/marketplace', element: <MarketplaceRoute /> }], `/marketplace${LINK}`, queryClient).router;
}

const asked = <Call extends { url: URL }>(calls: Call[], path: string) => calls.filter((call) => call.url.pathname === path);

// The marketplace page starts the map's import (Leaflet's modules), and on a busy machine it was
// still loading when this file's environment was torn down, which vitest counts as four errors
// and fails the run. Waiting for the same import at the end lets it finish first; loading it
// before the tests (as router.test.tsx does) would render the map here, which jsdom cannot.
afterAll(async () => {
  await import('@/features/marketplace/components/market-map');
});

describe("a company link's first search, started before React renders", () => {
  it('asks the alias, the place and the search at once; the page finds all three in its cache', async () => {
    const { calls } = companyLinkServer();
    // The app's own cache settings: an answer is fresh for a minute, so a screen does not ask again.
    const queryClient = createQueryClient();
    const started = startFirstScreen(queryClient, { pathname: '/marketplace', search: LINK });
    // All three are on their way before any answer: the search does not wait for the alias or the place.
    expect(calls.map((call) => call.url.pathname).sort()).toEqual(['/market/organization/from/alias', '/member/app/market/locations/geocode', '/member/app/market/search']);
    const [search] = asked(calls, '/member/app/market/search');
    expect(search!.url.searchParams.get('company')).toBe('acme');
    expect(search!.url.searchParams.get('userZipCode')).toBe('80202');
    expect(search!.url.searchParams.has('lat')).toBe(false);
    expect(bodyOf(search!)).toMatchObject({ search: { filters: { userZipCode: '80202' } } });
    expect(await started).not.toBeNull();

    // The page renders without waiting; once it has the employer and the place it asks its own
    // search (the link's coordinates, the employer's name), and finds it answered.
    const router = renderMarketplace(queryClient);
    await screen.findByRole('article', { name: /Mile High Direct Primary Care/ });
    expect(router.state.location.search).toBe('?company=acme&location=80202&lat=39.75153&lng=-104.99767');
    expect(screen.getAllByText('Acme Corporation').length).toBeGreaterThan(0);
    for (const path of ['/market/organization/from/alias', '/member/app/market/locations/geocode', '/member/app/market/search']) expect(asked(calls, path)).toHaveLength(1);
    // The link's employer is the alias's answer: no second lookup by name.
    expect(calls.filter((call) => call.url.pathname === '/member/app/potential/employers' && call.url.searchParams.has('search'))).toEqual([]);
  });

  it('settles once the three answers are in the cache, so a render after it shows the cards at once', async () => {
    companyLinkServer();
    const queryClient = createQueryClient();
    expect(await startFirstScreen(queryClient, { pathname: '/marketplace', search: LINK })).not.toBeNull();
    renderMarketplace(queryClient);
    // No waiting: the first render has the employer, the place and the cards.
    expect(screen.getByRole('article', { name: /Mile High Direct Primary Care/ })).toBeTruthy();
    expect(screen.queryByTestId('result-card-skeleton')).toBeNull();
  });

  it("asks the page's own search when the server's ZIP code stands elsewhere than the geocoded place", async () => {
    const { calls } = companyLinkServer({ lat: 39.9, lng: -105.2 });
    const queryClient = createQueryClient();
    await startFirstScreen(queryClient, { pathname: '/marketplace', search: LINK });
    renderMarketplace(queryClient);
    await screen.findByRole('article', { name: /Mile High Direct Primary Care/ });
    const searches = asked(calls, '/member/app/market/search');
    expect(searches).toHaveLength(2);
    expect(searches[1]!.url.searchParams.get('lat')).toBe('39.75153');
    expect(bodyOf(searches[1]!)).toMatchObject({ search: { filters: { employer: 'Acme Corporation' } } });
    await waitFor(() => expect(asked(calls, '/member/app/market/search')).toHaveLength(2));
  });

  it("takes a painted link's answers from the page: nothing is asked, and the first render has the cards", async () => {
    const { calls } = companyLinkServer();
    const answers: PaintedAnswers = {
      link: LINK,
      alias: { companyName: 'Acme Corporation', alias: 'acme', id: 7, status: 'active' },
      place: { results: [{ geometry: { location: place }, formatted_address: 'Denver, CO 80202, USA', zipCode: '80202', state: 'CO' }] },
      search: { clinics: [clinicItem()], clinicians: [], totalPages: 1, currentPage: 1, totalResults: 1, origin: place, radiusMiles: 30 },
    };
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = PAINTED_ANSWERS_ID;
    element.textContent = JSON.stringify(answers).replace(/</g, '\\u003c');
    document.body.append(element);
    try {
      // Only for the link it was painted for.
      expect(readPaintedAnswers(document, { search: '?company=other&location=80202' })).toBeNull();
      const painted = readPaintedAnswers(document, { search: LINK });
      expect(painted).toEqual(answers);
      const queryClient = createQueryClient();
      expect(await startFirstScreen(queryClient, { pathname: '/marketplace', search: LINK }, painted)).toEqual(answers.search);
      renderMarketplace(queryClient);
      expect(screen.getByRole('article', { name: /Mile High Direct Primary Care/ })).toBeTruthy();
      expect(screen.queryByTestId('result-card-skeleton')).toBeNull();
      await screen.findByText(/within 30 miles of 80202/);
      for (const path of ['/market/organization/from/alias', '/member/app/market/locations/geocode', '/member/app/market/search']) expect(asked(calls, path)).toHaveLength(0);
    } finally {
      element.remove();
    }
  });

  it('leaves a signed-in visit, other pages and links without a company to the screens', async () => {
    const { calls } = companyLinkServer();
    expect(await startFirstScreen(testQueryClient(), { pathname: '/account/details', search: LINK })).toBeNull();
    expect(await startFirstScreen(testQueryClient(), { pathname: '/marketplace', search: '?location=80202' })).toBeNull();
    signIn();
    expect(await startFirstScreen(testQueryClient(), { pathname: '/marketplace', search: LINK })).toBeNull();
    expect(calls).toEqual([]);
  });
});
