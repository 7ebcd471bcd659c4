import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { searchMarketQueryOptions } from '@/api/market/search-market';
import { favoriteRequest, useToggleFavorite } from '@/api/market/toggle-favorite';
import type { SearchKeyParams, SearchResponse } from '@/api/market/types';
import { ResultCard } from '@/features/marketplace/components/result-card';
import { cardAction } from '@/features/marketplace/utils/card-action';
import { DEFAULT_FILTERS } from '@/features/marketplace/utils/filters';
import { ClinicProfile } from '@/features/providers/components/clinic-profile';
import { createQueryClient } from '@/lib/query-client';
import { clinicianItem, clinicItem } from '@/test/fixtures';
import { bodyOf, mockFetch, signIn, renderInAppRouter } from '@/test/render';

const params: SearchKeyParams = { origin: { lat: 39.75, lng: -104.99 }, page: 1, filters: DEFAULT_FILTERS, employer: null, alias: null, userZipCode: null };
const searchPage: SearchResponse = { clinics: [clinicItem()], clinicians: [clinicianItem()], totalPages: 1, currentPage: 1, totalResults: 1, origin: params.origin!, radiusMiles: 30 };

/** The clinic of `clinicItem()` (organisation 10, location 100) as its profile call answers. */
function clinicProfile(favorite: boolean) {
  return {
    id: 10,
    locationId: 100,
    companyName: 'Mile High Direct Primary Care',
    locationName: 'Downtown',
    logo: '',
    credentials: 'MD, NP',
    newPatients: true,
    isVirtualLocation: false,
    homeCare: false,
    careModality: { atClinic: true, atWork: false, inHome: false, phone: false, textChat: false, virtual: false },
    details: { description: 'A clinic.' },
    favorite,
    contracted: false,
    contact: { phone: '', address1: '1600 Champa Street', city: 'Denver', state: 'CO', zipCode: '80202', website: '', coordinates: { lat: 39.75, lng: -104.99 } },
    services: [],
    clinicians: [],
    otherLocations: [],
  };
}

/** The search page's cards, read only from the cache (never refetched here), hearts wired as on the page. */
function SearchCards() {
  const search = useQuery({ ...searchMarketQueryOptions(params), enabled: false });
  const favorite = useToggleFavorite();
  return (
    <>
      {(search.data?.clinics ?? []).map((item) => (
        <ResultCard
          key={item.locationId}
          item={item}
          action={cardAction(item, null)}
          onAction={vi.fn()}
          onOpenDetails={vi.fn()}
          onToggleFavorite={(card) => favorite.mutate(favoriteRequest(card, !card.favorite))}
          favoriteBusy={favorite.isPending}
        />
      ))}
    </>
  );
}

describe('favourites across features', () => {
  it('flips the search card heart as soon as the profile heart is accepted, with the cards still fresh', async () => {
    signIn();
    let favorite = false;
    const { calls } = mockFetch((url) => {
      if (url.pathname === '/member/app/market/provider/10') return { body: clinicProfile(favorite) };
      if (url.pathname === '/member/app/market/favorite') {
        favorite = true;
        return { body: { entity: 'location', id: 100, favorite: true } };
      }
      return undefined;
    });
    // The app's client: a minute of staleTime, so nothing refetches the cards on its own.
    const queryClient = createQueryClient();
    queryClient.setQueryData(searchMarketQueryOptions(params).queryKey, searchPage);
    renderInAppRouter(
      [
        {
          path: '*',
          element: (
            <>
              <ClinicProfile organisationId={10} locationId={100} />
              <section data-testid="cards">
                <SearchCards />
              </section>
            </>
          ),
        },
      ],
      '/',
      queryClient,
    );

    const cards = screen.getByTestId('cards');
    expect(within(cards).getByRole('button', { name: 'Add Mile High Direct Primary Care — Downtown to favorites' }).getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(await screen.findByRole('button', { name: 'Add to favorites' }));

    const cardHeart = await within(cards).findByRole('button', { name: 'Remove Mile High Direct Primary Care — Downtown from favorites' });
    expect(cardHeart.getAttribute('aria-pressed')).toBe('true');
    expect(await screen.findByRole('button', { name: 'Favorite' })).toBeTruthy();
    const favoriteCalls = calls.filter((call) => call.url.pathname === '/member/app/market/favorite');
    expect(favoriteCalls.map(bodyOf)).toEqual([{ entity: 'location', location: 100, favorite: true }]);
    // The cards were patched, not searched again.
    expect(calls.some((call) => call.url.pathname === '/member/app/market/search')).toBe(false);
    expect(queryClient.getQueryState(searchMarketQueryOptions(params).queryKey)?.isInvalidated).toBe(false);
  });
});
